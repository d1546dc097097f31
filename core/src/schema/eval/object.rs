//! The checks of objects: `properties` (with `patternProperties`, `additionalProperties`),
//! `required`, dependencies, sizes, `propertyNames`, `unevaluatedProperties`; and the
//! `unevaluated*` walk both kinds share.

use serde_json::Value;

use super::{Chain, Eval, Seen, Seg, ies, push, unexpected};
use crate::schema::pointer::escape;
use crate::schema::program::{Check, Node};

impl<'p> Eval<'p> {
    #[inline(never)]
    pub(super) fn object<'v>(
        &mut self,
        check: &'p Check,
        inst: &'v Value,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
        seen: &mut Seen<'v>,
    ) -> bool {
        let Value::Object(map) = inst else {
            return true;
        };
        match check {
            Check::MinProperties(n) => {
                self.verdict(map.len() as u64 >= *n, ip, sp, "minProperties", || {
                    format!("{inst} has less than {n} propert{}", ies(*n))
                })
            }
            Check::MaxProperties(n) => {
                self.verdict(map.len() as u64 <= *n, ip, sp, "maxProperties", || {
                    format!("{inst} has more than {n} propert{}", ies(*n))
                })
            }
            Check::Required(names) => self.required(map, names, ip, sp, "required"),
            Check::DependentRequired(list, keyword) => {
                let mut ok = true;
                for (name, needs) in list {
                    if map.contains_key(name) {
                        let at = push(sp, Seg::Key(keyword));
                        if !self.required(map, needs, ip, Some(&at), name) {
                            ok = false;
                            if self.errors.is_none() {
                                return false;
                            }
                        }
                    }
                }
                ok
            }
            Check::DependentSchemas(list, keyword) => {
                let mut ok = true;
                let at = push(sp, Seg::Key(keyword));
                for (name, n) in list {
                    if map.contains_key(name) {
                        let here = push(Some(&at), Seg::Key(name));
                        if !self.node(*n, inst, ip, Some(&here), seen) {
                            ok = false;
                            if self.errors.is_none() {
                                return false;
                            }
                        }
                    }
                }
                ok
            }
            Check::Properties {
                named,
                patterns,
                additional,
            } => {
                let track = self.prog.track_unevaluated;
                let mut ok = true;
                let mut refused: Vec<&str> = Vec::new();
                let forbid_additional =
                    additional.is_some_and(|n| matches!(self.prog.nodes[n], Node::Bool(false)));
                for (key, value) in map {
                    let here_i = push(ip, Seg::Key(key));
                    let mut matched = false;
                    if let Some((_, n)) = named.iter().find(|(name, _)| name == key) {
                        matched = true;
                        let at = push(sp, Seg::Key("properties"));
                        let here_s = push(Some(&at), Seg::Key(key));
                        ok &= self.child(*n, value, Some(&here_i), Some(&here_s));
                    }
                    for (re, pattern, n) in patterns {
                        match re.is_match(key) {
                            Ok(true) => {
                                matched = true;
                                let at = push(sp, Seg::Key("patternProperties"));
                                let here_s = push(Some(&at), Seg::Key(pattern));
                                ok &= self.child(*n, value, Some(&here_i), Some(&here_s));
                            }
                            Ok(false) => {}
                            Err(limit) => {
                                ok = false;
                                self.fail(
                                    ip,
                                    sp,
                                    "patternProperties",
                                    || format!("{key:?} could not be matched against \"{pattern}\": {limit}"),);
                            }
                        }
                    }
                    if !matched {
                        if let Some(n) = additional {
                            if forbid_additional {
                                refused.push(key);
                                ok = false;
                            } else {
                                let at = push(sp, Seg::Key("additionalProperties"));
                                ok &= self.child(*n, value, Some(&here_i), Some(&at));
                            }
                            matched = true;
                        }
                    }
                    if matched && track {
                        seen.props.push(key);
                    }
                    if !ok && self.errors.is_none() {
                        return false;
                    }
                }
                if !refused.is_empty() {
                    let list: Vec<String> = refused.iter().map(|k| format!("'{k}'")).collect();
                    self.fail(ip, sp, "additionalProperties", || {
                        format!(
                            "Additional properties are not allowed ({}{})",
                            list.join(", "),
                            unexpected(list.len())
                        )
                    });
                }
                ok
            }
            Check::PropertyNames(n) => {
                let at = push(sp, Seg::Key("propertyNames"));
                let mut ok = true;
                for key in map.keys() {
                    let name = Value::String(key.clone());
                    if !self.child(*n, &name, ip, Some(&at)) {
                        ok = false;
                        if self.errors.is_none() {
                            return false;
                        }
                    }
                }
                ok
            }
            Check::UnevaluatedProperties(n) => {
                let left: Vec<(Seg<'v>, &'v Value)> = map
                    .iter()
                    .filter(|(k, _)| !seen.props.contains(&k.as_str()))
                    .map(|(k, v)| (Seg::Key(k.as_str()), v))
                    .collect();
                seen.props.extend(map.keys().map(String::as_str));
                self.unevaluated(
                    *n,
                    &left,
                    inst,
                    ip,
                    sp,
                    "unevaluatedProperties",
                    "Unevaluated properties",
                )
            }
            _ => true,
        }
    }

    fn required(
        &mut self,
        map: &serde_json::Map<String, Value>,
        names: &[String],
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
        keyword: &str,
    ) -> bool {
        let mut ok = true;
        for name in names {
            if !map.contains_key(name) {
                ok = false;
                let quoted = Value::String(name.clone());
                self.fail(ip, sp, &escape(keyword), || {
                    format!("{quoted} is a required property")
                });
                if self.errors.is_none() {
                    return false;
                }
            }
        }
        ok
    }

    /// `unevaluatedItems` / `unevaluatedProperties` over what no other keyword evaluated.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn unevaluated(
        &mut self,
        n: usize,
        left: &[(Seg<'_>, &Value)],
        inst: &Value,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
        keyword: &str,
        what: &str,
    ) -> bool {
        if left.is_empty() {
            return true;
        }
        let _ = inst;
        if matches!(self.prog.nodes[n], Node::Bool(false)) {
            let list: Vec<String> = left
                .iter()
                .map(|(seg, v)| match seg {
                    Seg::Key(k) => format!("'{k}'"),
                    Seg::Index(_) => format!("'{v}'"),
                })
                .collect();
            self.fail(ip, sp, keyword, || {
                format!(
                    "{what} are not allowed ({}{})",
                    list.join(", "),
                    unexpected(list.len())
                )
            });
            return false;
        }
        let at = push(sp, Seg::Key(keyword));
        let mut ok = true;
        for (seg, value) in left {
            let here = push(ip, *seg);
            if !self.child(n, value, Some(&here), Some(&at)) {
                ok = false;
                if self.errors.is_none() {
                    return false;
                }
            }
        }
        ok
    }
}
