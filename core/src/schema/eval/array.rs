//! The checks of arrays: `items` (and `prefixItems`, `additionalItems`), `contains`, sizes,
//! `uniqueItems`, `unevaluatedItems`.

use serde_json::Value;

use super::{Chain, Eval, Seen, Seg, plural, push, unexpected};
use crate::schema::equal::equal;
use crate::schema::program::{Check, Node};

impl<'p> Eval<'p> {
    #[inline(never)]
    pub(super) fn array<'v>(
        &mut self,
        check: &'p Check,
        inst: &'v Value,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
        seen: &mut Seen<'v>,
    ) -> bool {
        let Value::Array(items) = inst else {
            return true;
        };
        match check {
            Check::MinItems(n) => {
                self.verdict(items.len() as u64 >= *n, ip, sp, "minItems", || {
                    format!("{inst} has less than {n} item{}", plural(*n))
                })
            }
            Check::MaxItems(n) => {
                self.verdict(items.len() as u64 <= *n, ip, sp, "maxItems", || {
                    format!("{inst} has more than {n} item{}", plural(*n))
                })
            }
            Check::UniqueItems => {
                let duplicate = (0..items.len())
                    .any(|i| items[i + 1..].iter().any(|other| equal(&items[i], other)));
                self.verdict(!duplicate, ip, sp, "uniqueItems", || {
                    format!("{inst} has non-unique elements")
                })
            }
            Check::Items {
                prefix,
                rest,
                prefix_keyword,
                rest_keyword,
            } => {
                let mut ok = true;
                let at = push(sp, Seg::Key(prefix_keyword));
                for (i, (n, item)) in prefix.iter().zip(items).enumerate() {
                    let here_i = push(ip, Seg::Index(i));
                    let here_s = push(Some(&at), Seg::Index(i));
                    if !self.child(*n, item, Some(&here_i), Some(&here_s)) {
                        ok = false;
                        if self.errors.is_none() {
                            return false;
                        }
                    }
                }
                seen.items_upto = seen.items_upto.max(prefix.len().min(items.len()));
                if let Some(rest) = rest {
                    if items.len() > prefix.len() {
                        if matches!(self.prog.nodes[*rest], Node::Bool(false)) {
                            let extra: Vec<String> =
                                items[prefix.len()..].iter().map(Value::to_string).collect();
                            self.fail(ip, sp, rest_keyword, || {
                                format!(
                                    "Additional items are not allowed ({}{})",
                                    extra.join(", "),
                                    unexpected(extra.len())
                                )
                            });
                            return false;
                        }
                        let at = push(sp, Seg::Key(rest_keyword));
                        for (i, item) in items.iter().enumerate().skip(prefix.len()) {
                            let here_i = push(ip, Seg::Index(i));
                            if !self.child(*rest, item, Some(&here_i), Some(&at)) {
                                ok = false;
                                if self.errors.is_none() {
                                    return false;
                                }
                            }
                        }
                    }
                    seen.items_all = true;
                }
                ok
            }
            Check::Contains {
                node,
                min,
                max,
                annotates,
            } => {
                let mut matched = 0u64;
                for (i, item) in items.iter().enumerate() {
                    if self.quiet(*node, item, &mut Seen::default()) {
                        matched += 1;
                        if *annotates {
                            seen.items.push(i);
                        }
                    }
                }
                if matched < *min {
                    let keyword = if *min == 1 { "contains" } else { "minContains" };
                    self.fail(ip, sp, keyword, || {
                        if matched == 0 {
                            format!("None of {inst} are valid under the given schema")
                        } else {
                            format!(
                                "{inst} has {matched} item{} valid under the 'contains' schema, fewer than minContains {min}",
                                plural(matched)
                            )
                        }
                    });
                    return false;
                }
                if let Some(max) = max {
                    if matched > *max {
                        self.fail(
                            ip,
                            sp,
                            "maxContains",
                            || format!(
                                "{inst} has {matched} items valid under the 'contains' schema, more than maxContains {max}"
                            ),);
                        return false;
                    }
                }
                true
            }
            Check::UnevaluatedItems(n) => {
                if seen.items_all {
                    return true;
                }
                let left: Vec<usize> = (seen.items_upto..items.len())
                    .filter(|i| !seen.items.contains(i))
                    .collect();
                seen.items_all = true;
                self.unevaluated(
                    *n,
                    &left
                        .iter()
                        .map(|&i| (Seg::Index(i), &items[i]))
                        .collect::<Vec<_>>(),
                    inst,
                    ip,
                    sp,
                    "unevaluatedItems",
                    "Unevaluated items",
                )
            }
            _ => true,
        }
    }
}
