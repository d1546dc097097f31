//! The skill the everything-server serves (the skills extension, SEP-2640): `pdf-processing`, with
//! a `SKILL.md` and a file in a subdirectory, so that listing, retrieval, verification and
//! directory reads (files and a subdirectory) all have something to work on.

use libmcp::server::ServerBuilder;
use libmcp::skills::Skill;

/// The skill's `SKILL.md`.
pub const SKILL_MD: &str = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nlicense: Apache-2.0\n---\n\n# PDF processing\n\nUse the form reference in references/FORMS.md when a PDF has fields to fill.\n";

/// Its supporting file.
pub const FORMS_MD: &str = "# Forms\n\nFill every field, then flatten the document.\n";

pub(super) fn register(b: ServerBuilder) -> ServerBuilder {
    let skill = Skill::new(SKILL_MD)
        .and_then(|s| s.file("references/FORMS.md", "text/markdown", FORMS_MD))
        .expect("the fixture skill is valid");
    b.skill(skill)
}
