//! Equality of JSON values as JSON Schema defines it for `enum`, `const` and `uniqueItems`:
//! numbers are equal by mathematical value (`1` equals `1.0`), objects regardless of key order.

use std::cmp::Ordering;

use serde_json::{Number, Value};

/// Whether `a` and `b` are the same JSON value.
pub(super) fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare(x, y) == Some(Ordering::Equal),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}

/// The order of two numbers by value: exact for integers, as `f64` otherwise (`None` never
/// happens for JSON numbers, which are finite).
pub(super) fn compare(a: &Number, b: &Number) -> Option<Ordering> {
    if let (Some(x), Some(y)) = (as_i128(a), as_i128(b)) {
        return Some(x.cmp(&y));
    }
    a.as_f64()?.partial_cmp(&b.as_f64()?)
}

fn as_i128(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

/// Whether `n` is an integer by value (`1.0` is; JSON Schema draft-06 on, and here for every draft).
pub(super) fn is_integer(n: &Number) -> bool {
    n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
}

/// Whether `n` is a multiple of `of` (> 0): exact for integers; for other numbers the quotient
/// must be finite and an integer.
pub(super) fn is_multiple(n: &Number, of: &Number) -> bool {
    if let (Some(x), Some(y)) = (as_i128(n), as_i128(of)) {
        return y != 0 && x % y == 0;
    }
    let (Some(x), Some(y)) = (n.as_f64(), of.as_f64()) else {
        return false;
    };
    let q = x / y;
    if !q.is_finite() {
        // The quotient overflows (1e308 / 0.5): the remainder still says.
        return x.is_finite() && (x % y) == 0.0;
    }
    // Decimal divisors are not exact in binary (0.0075 / 0.0001 is 74.99999999999999): a quotient
    // within a few ulps of an integer counts as one.
    (q - q.round()).abs() <= q.abs().max(1.0) * 1e-12
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn numbers_by_value_objects_by_content() {
        assert!(equal(&json!(1), &json!(1.0)));
        assert!(equal(
            &json!({"a": [1, {"b": 2.0}]}),
            &json!({"a": [1.0, {"b": 2}]})
        ));
        assert!(!equal(&json!([1, 2]), &json!([2, 1])));
        assert!(!equal(&json!(false), &json!(0)));
        assert!(!equal(&json!({"a": 1}), &json!({"a": 1, "b": 1})));
    }

    #[test]
    fn multiples() {
        let n = |v: Value| v.as_number().cloned().unwrap();
        assert!(is_multiple(&n(json!(0.0075)), &n(json!(0.0001))));
        assert!(!is_multiple(&n(json!(0.00751)), &n(json!(0.0001))));
        assert!(is_multiple(&n(json!(12)), &n(json!(4))));
        assert!(!is_multiple(&n(json!(1e308)), &n(json!(0.123456789))));
        assert!(is_multiple(&n(json!(1e308)), &n(json!(0.5))));
        assert!(is_multiple(&n(json!(4.5)), &n(json!(1.5))));
        assert!(!is_multiple(&n(json!(35)), &n(json!(1.5))));
    }
}
