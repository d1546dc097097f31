//! RFC 6570 URI templates: parsing any text, reverse-matching any URI (which must stay fast: no
//! exponential backtracking), and expanding what a match returned or values taken from the input.
//! Input: NUL-separated template, URI, then variable values.
#![no_main]

use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;
use libmcp::uri_template::{TemplateValue, UriTemplate};

fuzz_target!(|data: &[u8]| {
    let parts = libmcp_fuzz::split_nul(data, 3);
    let Ok(template) = UriTemplate::parse(&libmcp_fuzz::text(parts[0])) else {
        return;
    };
    assert_eq!(
        UriTemplate::parse(template.as_str())
            .as_ref()
            .map(UriTemplate::as_str),
        Ok(template.as_str())
    );
    let uri = libmcp_fuzz::text(parts.get(1).copied().unwrap_or_default());
    if let Some(vars) = template.matches(&uri) {
        let names = template.variables();
        assert!(
            vars.keys().all(|k| names.contains(&k.as_str())),
            "{vars:?} not in {names:?}"
        );
        let _ = template.expand(&vars);
    }
    let values = libmcp_fuzz::text(parts.get(2).copied().unwrap_or_default());
    let mut words = values.split(',');
    let mut vars = BTreeMap::new();
    for (i, name) in template.variables().into_iter().enumerate() {
        let value = match i % 3 {
            0 => TemplateValue::String(words.next().unwrap_or_default().to_owned()),
            1 => TemplateValue::List(words.by_ref().take(2).map(str::to_owned).collect()),
            _ => TemplateValue::Assoc(vec![(
                words.next().unwrap_or_default().to_owned(),
                words.next().unwrap_or_default().to_owned(),
            )]),
        };
        vars.insert(name.to_owned(), value);
    }
    let expanded = template.expand(&vars);
    let _ = template.matches(&expanded);
});
