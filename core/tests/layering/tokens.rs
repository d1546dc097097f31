//! Rust source as a list of the tokens a path is made of: comments, string and char literals are
//! dropped (a path written in a doc link or a message is not an import), everything else that is
//! not an identifier or `::` becomes one punctuation token.

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    Ident(String),
    /// `::`
    Sep,
    Punct(char),
}

/// The tokens of `src`, each with its line number (from 1).
pub fn tokens(src: &str) -> Vec<(usize, Token)> {
    let chars: Vec<char> = src.chars().collect();
    let mut line_starts = vec![0];
    line_starts.extend(
        chars
            .iter()
            .enumerate()
            .filter(|(_, c)| **c == '\n')
            .map(|(i, _)| i + 1),
    );
    let line = |i: usize| line_starts.partition_point(|&s| s <= i);
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i = block_comment_end(&chars, i);
        } else if c == '"' {
            i = string_end(&chars, i + 1);
        } else if (c == 'r' || c == 'b') && raw_string_start(&chars, i).is_some() {
            let (hashes, open) = raw_string_start(&chars, i).unwrap();
            i = raw_string_end(&chars, open + 1, hashes);
        } else if c == 'b' && next == Some('"') {
            i = string_end(&chars, i + 2);
        } else if c == '\'' {
            i = char_or_lifetime_end(&chars, i);
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((line(start), Token::Ident(chars[start..i].iter().collect())));
        } else if c == ':' && next == Some(':') {
            out.push((line(i), Token::Sep));
            i += 2;
        } else if c.is_whitespace() {
            i += 1;
        } else {
            out.push((line(i), Token::Punct(c)));
            i += 1;
        }
    }
    out
}

/// The index after a `/* ... */` comment starting at `i` (they nest in Rust).
fn block_comment_end(chars: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < chars.len() {
        if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
            depth += 1;
            i += 2;
        } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// The index after the closing quote of a string whose body starts at `i`.
fn string_end(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// For `r"`, `r#"`, `br##"` at `i` (not inside an identifier): the number of `#` and the index of
/// the opening quote.
fn raw_string_start(chars: &[char], i: usize) -> Option<(usize, usize)> {
    if i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_') {
        return None;
    }
    let mut j = i;
    if chars[j] == 'b' {
        j += 1;
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes_from = j;
    while chars.get(j) == Some(&'#') {
        j += 1;
    }
    (chars.get(j) == Some(&'"')).then_some((j - hashes_from, j))
}

fn raw_string_end(chars: &[char], mut i: usize, hashes: usize) -> usize {
    while i < chars.len() {
        if chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
            return i + 1 + hashes;
        }
        i += 1;
    }
    i
}

/// After `'` at `i`: a char literal (`'a'`, `'\n'`, `'\u{1F600}'`) is skipped whole; a lifetime
/// (`'a`, `'static`) only its quote, its name then reads as an identifier no path starts with.
fn char_or_lifetime_end(chars: &[char], i: usize) -> usize {
    if chars.get(i + 1) == Some(&'\\') {
        let mut j = i + 2;
        while j < chars.len() && chars[j] != '\'' {
            j += 1;
        }
        return j + 1;
    }
    if chars.get(i + 2) == Some(&'\'') {
        return i + 3;
    }
    i + 1
}
