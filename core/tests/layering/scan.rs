//! The files of a crate's `src` and which of them each one names.
//!
//! A file names another when a path in its code (a `use`, or a qualified path in an expression or
//! a type) resolves to an item of the other file's module: paths through `crate::`, `super::`,
//! `self::`, a child module, or a name a `use` brought in. A path through a module that re-exports
//! the item (`pub use context::RequestContext;` in a `mod.rs`) is followed to the file that defines
//! it, and a re-export itself (`pub use`, `pub(crate) use`) is not an arrow: a module whose code
//! only declares and re-exports its children is a doorway, neither above nor below them. `mod x;`
//! declarations are not arrows either. Code compiled only for tests (an inline `#[cfg(test)] mod`
//! and files declared under `#[cfg(test)]`) is not part of the layering and is skipped.
//!
//! The scanner reads text, not types: a method call (`c.finish()`) names no path, so the arrow to
//! the file whose `impl` defines the method is not seen. Code that must stay visible to this check
//! calls across files through paths (`complete::finish(c, reply)`), and an `impl` added to a type
//! of another file depends only on files below that type's users.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::tokens::{Token, tokens};

/// A module path inside the crate (`["server", "methods"]`; empty for the crate root).
type ModPath = Vec<String>;

/// Which files each file names, with the lines that name them.
pub type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<usize>>>;

#[derive(Default)]
struct FileScan {
    module: ModPath,
    /// Names a `use` brought into the file, to the crate path they stand for.
    uses: BTreeMap<String, ModPath>,
    /// Crate paths the file's code names, with their line.
    paths: Vec<(usize, ModPath)>,
    /// Child modules declared `#[cfg(test)] mod x;`.
    test_children: Vec<String>,
}

/// Every `.rs` file under `src`: its path relative to `src` (with `/`), and its text.
pub fn read_src(src: &Path) -> BTreeMap<String, String> {
    fn walk(src: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(src, &path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel: Vec<&str> = path
                    .strip_prefix(src)
                    .unwrap()
                    .components()
                    .map(|c| c.as_os_str().to_str().unwrap())
                    .collect();
                out.insert(rel.join("/"), std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, src, &mut out);
    out
}

/// The module path of a file: `a/b.rs` and `a/b/mod.rs` are `a::b`, `lib.rs` the root.
fn module_of(rel: &str) -> ModPath {
    let mut module: ModPath = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if module.len() == 1 && matches!(module[0].as_str(), "lib" | "main")
        || module.last().is_some_and(|m| m == "mod")
    {
        module.pop();
    }
    module
}

/// The crate path `segs` stands for, written in module `scope` of a file whose `use`s are `uses`;
/// `None` for a path outside the crate (another crate, a local name).
fn absolute(
    scope: &[String],
    segs: &[String],
    uses: &BTreeMap<String, ModPath>,
    modules: &BTreeMap<ModPath, String>,
) -> Option<ModPath> {
    let first = segs.first()?.as_str();
    let mut base: ModPath = match first {
        "crate" => return Some(segs[1..].to_vec()),
        "self" => scope.to_vec(),
        "super" => {
            let mut base = scope.to_vec();
            let mut rest = segs;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
            base.extend(rest.iter().cloned());
            return Some(base);
        }
        _ => {
            let mut child = scope.to_vec();
            child.push(first.to_owned());
            if modules.contains_key(&child) {
                scope.to_vec()
            } else {
                let mut base = uses.get(first)?.clone();
                base.extend(segs[1..].iter().cloned());
                return Some(base);
            }
        }
    };
    base.extend(segs[usize::from(first == "self")..].iter().cloned());
    Some(base)
}

/// A `use` tree from `tokens[*i]` up to its end: the leaves as (written path, name bound).
fn use_tree(
    toks: &[(usize, Token)],
    i: &mut usize,
    prefix: &[String],
) -> Vec<(ModPath, Option<String>)> {
    let mut segs = prefix.to_vec();
    let mut out = Vec::new();
    loop {
        match toks.get(*i).map(|t| &t.1) {
            Some(Token::Ident(s)) => {
                segs.push(s.clone());
                *i += 1;
            }
            Some(Token::Sep) => *i += 1,
            Some(Token::Punct('*')) => {
                *i += 1;
                out.push((segs, None));
                return out;
            }
            Some(Token::Punct('{')) => {
                *i += 1;
                loop {
                    match toks.get(*i).map(|t| &t.1) {
                        Some(Token::Punct('}')) => {
                            *i += 1;
                            return out;
                        }
                        Some(Token::Punct(',')) => *i += 1,
                        None => return out,
                        _ => out.extend(use_tree(toks, i, &segs)),
                    }
                }
            }
            _ => break,
        }
    }
    // `a::b as c`: the ident loop above took `as` and `c` as segments.
    let alias = (segs.len() >= 2 && segs[segs.len() - 2] == "as").then(|| {
        let alias = segs.pop().unwrap();
        segs.pop();
        alias
    });
    if segs.last().is_some_and(|s| s == "self") {
        segs.pop();
    }
    let name = alias.or_else(|| segs.last().cloned());
    out.push((segs, name));
    out
}

/// Whether the attribute starting at `toks[i]` (`#`) is a `cfg` that holds only in tests:
/// `cfg(test)` or `cfg(all(.., test, ..))`.
fn test_only_cfg(toks: &[(usize, Token)], i: usize) -> bool {
    let ident = |k: usize| match toks.get(k).map(|t| &t.1) {
        Some(Token::Ident(s)) => s.as_str(),
        _ => "",
    };
    if ident(i + 2) != "cfg" {
        return false;
    }
    match ident(i + 4) {
        "test" => true,
        "all" => {
            let mut k = i + 6;
            let mut depth = 1;
            while depth > 0 && k < toks.len() {
                match &toks[k].1 {
                    Token::Punct('(') => depth += 1,
                    Token::Punct(')') => depth -= 1,
                    Token::Ident(s) if s == "test" && depth == 1 => return true,
                    _ => {}
                }
                k += 1;
            }
            false
        }
        _ => false,
    }
}

/// Whether the `use` at `toks[i]` is a re-export: `pub use`, `pub(crate) use`, `pub(in ..) use`.
fn is_pub(toks: &[(usize, Token)], i: usize) -> bool {
    let mut k = i;
    if k > 0 && toks[k - 1].1 == Token::Punct(')') {
        while k > 0 && toks[k - 1].1 != Token::Punct('(') {
            k -= 1;
        }
        k = k.saturating_sub(1);
    }
    k > 0 && toks[k - 1].1 == Token::Ident("pub".to_owned())
}

/// The index after the block whose `{` is at `i`.
fn block_end(toks: &[(usize, Token)], mut i: usize) -> usize {
    let mut depth = 0;
    while i < toks.len() {
        match toks[i].1 {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

fn scan_file(module: ModPath, text: &str, modules: &BTreeMap<ModPath, String>) -> FileScan {
    let toks = tokens(text);
    let mut scan = FileScan {
        module: module.clone(),
        ..FileScan::default()
    };
    // Written paths with their scope; resolved once every `use` of the file is known.
    let mut written: Vec<(usize, ModPath, ModPath)> = Vec::new();
    // `use`s: (scope, written path, name bound, line, whether a `pub` re-export).
    let mut written_uses: Vec<(ModPath, ModPath, Option<String>, usize, bool)> = Vec::new();
    // Inline modules open around the current token: (name, brace depth inside them).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut test_only = false;
    let mut i = 0;
    let scope = |inline: &[(String, usize)]| {
        let mut s = module.clone();
        s.extend(inline.iter().map(|(n, _)| n.clone()));
        s
    };
    while i < toks.len() {
        let (line, tok) = &toks[i];
        match tok {
            Token::Punct('#') if matches!(toks.get(i + 1), Some((_, Token::Punct('[')))) => {
                test_only |= test_only_cfg(&toks, i);
                i += 1;
                continue;
            }
            Token::Punct('{') => {
                depth += 1;
                test_only = false;
            }
            Token::Punct('}') => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth -= 1;
            }
            Token::Punct(';') => test_only = false,
            Token::Ident(kw) if kw == "mod" => {
                if let (Some((_, Token::Ident(name))), Some((_, next))) =
                    (toks.get(i + 1), toks.get(i + 2))
                {
                    match (next, test_only) {
                        (Token::Punct('{'), true) => {
                            i = block_end(&toks, i + 2);
                            test_only = false;
                            continue;
                        }
                        (Token::Punct('{'), false) => {
                            inline.push((name.clone(), depth + 1));
                        }
                        (Token::Punct(';'), true) => scan.test_children.push(name.clone()),
                        _ => {}
                    }
                    i += 2;
                    continue;
                }
            }
            Token::Ident(kw) if kw == "use" => {
                let reexport = is_pub(&toks, i);
                i += 1;
                if matches!(toks.get(i), Some((_, Token::Sep))) {
                    i += 1;
                }
                let here = scope(&inline);
                for (segs, name) in use_tree(&toks, &mut i, &[]) {
                    written_uses.push((here.clone(), segs, name, *line, reexport));
                }
                continue;
            }
            Token::Ident(first)
                if !matches!(i.checked_sub(1).map(|k| &toks[k].1), Some(Token::Sep)) =>
            {
                let mut segs = vec![first.clone()];
                let mut j = i + 1;
                while let (Some((_, Token::Sep)), Some((_, Token::Ident(s)))) =
                    (toks.get(j), toks.get(j + 1))
                {
                    segs.push(s.clone());
                    j += 2;
                }
                if segs.len() > 1 {
                    written.push((*line, scope(&inline), segs));
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    // `use` paths may go through names other `use`s bring in; resolve until nothing changes.
    let no_uses = BTreeMap::new();
    for pass in 0..2 {
        for (here, segs, name, line, reexport) in &written_uses {
            let direct = absolute(here, segs, &no_uses, modules);
            let abs = match pass {
                0 => direct,
                _ if direct.is_none() => absolute(here, segs, &scan.uses, modules),
                _ => None,
            };
            if let Some(abs) = abs {
                if let Some(name) = name {
                    scan.uses.insert(name.clone(), abs.clone());
                }
                if !reexport {
                    scan.paths.push((*line, abs));
                }
            }
        }
    }
    for (line, here, segs) in written {
        if let Some(abs) = absolute(&here, &segs, &scan.uses, modules) {
            scan.paths.push((line, abs));
        }
    }
    scan
}

/// The arrows between `files` (relative path to text, as [`read_src`] gives), test-only files
/// left out.
pub fn graph(files: &BTreeMap<String, String>) -> Graph {
    let modules: BTreeMap<ModPath, String> = files
        .keys()
        .map(|rel| (module_of(rel), rel.clone()))
        .collect();
    let scans: BTreeMap<String, FileScan> = files
        .iter()
        .map(|(rel, text)| (rel.clone(), scan_file(module_of(rel), text, &modules)))
        .collect();
    let test_modules: BTreeSet<ModPath> = scans
        .values()
        .flat_map(|s| {
            s.test_children.iter().map(|c| {
                let mut m = s.module.clone();
                m.push(c.clone());
                m
            })
        })
        .collect();
    let in_tests = |m: &ModPath| test_modules.iter().any(|t| m.starts_with(t));
    let resolve = |abs: &[String]| -> Option<String> {
        let mut abs = abs.to_vec();
        for _ in 0..8 {
            let k = (0..=abs.len())
                .rev()
                .find(|k| modules.contains_key(&abs[..*k]))?;
            let file = &modules[&abs[..k]];
            match abs.get(k).and_then(|name| scans[file].uses.get(name)) {
                Some(target) if !abs.starts_with(target) => {
                    let mut next = target.clone();
                    next.extend(abs[k + 1..].iter().cloned());
                    abs = next;
                }
                _ => return Some(file.clone()),
            }
        }
        None
    };
    let mut g = Graph::new();
    for (file, scan) in &scans {
        if in_tests(&scan.module) {
            continue;
        }
        for (line, abs) in &scan.paths {
            if let Some(to) = resolve(abs) {
                let to_module = &scans[&to].module;
                if &to != file && !in_tests(to_module) {
                    g.entry(file.clone())
                        .or_default()
                        .entry(to)
                        .or_default()
                        .insert(*line);
                }
            }
        }
    }
    g
}
