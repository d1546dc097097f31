//! "did you mean ...?" for a mistyped command or option: the known word closest to the typed one by
//! edit distance (insertions, deletions, substitutions and swaps of two neighbours), when it is close
//! enough to be a typo rather than another word.

/// The known word nearest to `typed`, if one is within a third of its length (at least one edit, at
/// most three); ties go to the first in `known`.
pub fn nearest<'a>(typed: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (typed.chars().count() / 3).clamp(1, 3);
    known
        .into_iter()
        .map(|k| (distance(typed, k), k))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// ` (did you mean X?)` when a known word is near `typed`, else nothing.
pub fn hint<'a>(typed: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    nearest(typed, known)
        .map(|k| format!(" (did you mean {k}?)"))
        .unwrap_or_default()
}

/// The optimal string alignment distance between `a` and `b`, by characters.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // rows[i][j]: the distance between a[..i] and b[..j].
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMANDS: [&str; 5] = ["tools", "call", "prompts", "prompt", "resources"];

    #[test]
    fn typos_find_the_word_and_other_words_do_not() {
        assert_eq!(nearest("toosl", COMMANDS), Some("tools"));
        assert_eq!(nearest("tool", COMMANDS), Some("tools"));
        assert_eq!(nearest("cal", COMMANDS), Some("call"));
        assert_eq!(nearest("promtps", COMMANDS), Some("prompts"));
        assert_eq!(nearest("resorces", COMMANDS), Some("resources"));
        assert_eq!(nearest("deploy", COMMANDS), None);
        assert_eq!(nearest("x", COMMANDS), None);
        assert_eq!(
            hint("--jsno", ["--json", "--root"]),
            " (did you mean --json?)"
        );
        assert_eq!(hint("--frobnicate", ["--json", "--root"]), "");
    }

    #[test]
    fn distance_counts_edits() {
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("abc", "abc"), 0);
        assert_eq!(distance("abc", "acb"), 1);
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
