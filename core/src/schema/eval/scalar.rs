//! The checks of one value: `type`, `enum`, `const`, and those of numbers and strings.

use std::cmp::Ordering;
use std::fmt::Write as _;

use serde_json::Value;

use super::{Chain, Eval, plural};
use crate::schema::equal::{compare, equal, is_integer, is_multiple};
use crate::schema::program::Check;
use crate::schema::regex::RegexLimit;

impl<'p> Eval<'p> {
    #[inline(never)]
    pub(super) fn value(
        &mut self,
        check: &'p Check,
        inst: &Value,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
    ) -> bool {
        match check {
            Check::Type(mask, names) => {
                self.verdict(type_bits(inst) & mask != 0, ip, sp, "type", || {
                    if names.len() == 1 {
                        format!("{inst} is not of type \"{}\"", names[0])
                    } else {
                        let list: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
                        format!("{inst} is not of types {}", list.join(", "))
                    }
                })
            }
            Check::Enum(options) => self.verdict(
                options.iter().any(|o| equal(o, inst)),
                ip,
                sp,
                "enum",
                || enum_message(inst, options),
            ),
            Check::Const(c) => self.verdict(equal(c, inst), ip, sp, "const", || {
                format!("{c} was expected")
            }),
            _ => true,
        }
    }

    #[inline(never)]
    pub(super) fn numeric(
        &mut self,
        check: &Check,
        inst: &Value,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
    ) -> bool {
        let Value::Number(x) = inst else {
            return true;
        };
        let (ok, keyword, what, limit) = match check {
            Check::Minimum(m) => (
                compare(x, m) != Some(Ordering::Less),
                "minimum",
                "is less than the minimum of",
                m,
            ),
            Check::Maximum(m) => (
                compare(x, m) != Some(Ordering::Greater),
                "maximum",
                "is greater than the maximum of",
                m,
            ),
            Check::ExclusiveMinimum(m) => (
                compare(x, m) == Some(Ordering::Greater),
                "exclusiveMinimum",
                "is less than or equal to the minimum of",
                m,
            ),
            Check::ExclusiveMaximum(m) => (
                compare(x, m) == Some(Ordering::Less),
                "exclusiveMaximum",
                "is greater than or equal to the maximum of",
                m,
            ),
            Check::MultipleOf(m) => (is_multiple(x, m), "multipleOf", "is not a multiple of", m),
            _ => return true,
        };
        if !ok {
            self.fail(ip, sp, keyword, || format!("{inst} {what} {limit}"));
        }
        ok
    }

    #[inline(never)]
    pub(super) fn string(
        &mut self,
        check: &Check,
        inst: &Value,
        ip: Option<&Chain<'_>>,
        sp: Option<&Chain<'_>>,
    ) -> bool {
        let Value::String(s) = inst else {
            return true;
        };
        let failed = match check {
            Check::MinLength(n) => {
                if s.chars().count() as u64 >= *n {
                    return true;
                }
                ("minLength", StringFailure::Short(*n))
            }
            Check::MaxLength(n) => {
                if s.chars().count() as u64 <= *n {
                    return true;
                }
                ("maxLength", StringFailure::Long(*n))
            }
            Check::Pattern(re, pattern) => match re.is_match(s) {
                Ok(true) => return true,
                Ok(false) => ("pattern", StringFailure::NoMatch(pattern)),
                Err(limit) => ("pattern", StringFailure::Limit(pattern, limit)),
            },
            Check::Format(format) => {
                if format.accepts(s) {
                    return true;
                }
                ("format", StringFailure::Format(format.name()))
            }
            _ => return true,
        };
        let (keyword, message) = failed;
        self.fail(ip, sp, keyword, || message.text(inst));
        false
    }
}

/// Why a string failed, worded only when failures are reported.
enum StringFailure<'a> {
    Short(u64),
    Long(u64),
    NoMatch(&'a str),
    Limit(&'a str, RegexLimit),
    Format(&'static str),
}

impl StringFailure<'_> {
    fn text(self, inst: &Value) -> String {
        match self {
            StringFailure::Short(n) => format!("{inst} is shorter than {n} character{}", plural(n)),
            StringFailure::Long(n) => format!("{inst} is longer than {n} character{}", plural(n)),
            StringFailure::NoMatch(p) => format!("{inst} does not match \"{p}\""),
            StringFailure::Limit(p, limit) => {
                format!("{inst} could not be matched against \"{p}\": {limit}")
            }
            StringFailure::Format(name) => format!("{inst} is not a \"{name}\""),
        }
    }
}

/// The `type` bits an instance has, in the order of `program::TYPE_NAMES` (an integral number is both
/// "number" and "integer").
fn type_bits(v: &Value) -> u8 {
    const NULL: u8 = 1;
    const BOOLEAN: u8 = 1 << 1;
    const OBJECT: u8 = 1 << 2;
    const ARRAY: u8 = 1 << 3;
    const NUMBER: u8 = 1 << 4;
    const STRING: u8 = 1 << 5;
    const INTEGER: u8 = 1 << 6;
    match v {
        Value::Null => NULL,
        Value::Bool(_) => BOOLEAN,
        Value::Object(_) => OBJECT,
        Value::Array(_) => ARRAY,
        Value::String(_) => STRING,
        Value::Number(n) if is_integer(n) => NUMBER | INTEGER,
        Value::Number(_) => NUMBER,
    }
}

/// `x is not one of a, b or c` (at most three options shown).
fn enum_message(inst: &Value, options: &[Value]) -> String {
    let mut out = format!("{inst} is not one of ");
    if options.len() <= 3 {
        for (i, o) in options.iter().enumerate() {
            let sep = match i {
                0 => "",
                i if i == options.len() - 1 => " or ",
                _ => ", ",
            };
            let _ = write!(out, "{sep}{o}");
        }
    } else {
        let _ = write!(
            out,
            "{}, {} or {} other candidates",
            options[0],
            options[1],
            options.len() - 2
        );
    }
    out
}
