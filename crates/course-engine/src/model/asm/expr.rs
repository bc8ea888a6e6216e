//! Constant expressions in operands (`$-8`, `#0x10`, `(1 << 4) + 2`), as
//! the assembler folds them; anything with a symbol stays symbolic.

/// The value of `s` if it is a constant integer expression.
pub fn eval(s: &str) -> Option<i64> {
    let toks = tokens(s)?;
    let mut p = Parser {
        toks: &toks,
        at: 0,
        depth: 0,
    };
    let v = p.binary(0)?;
    (p.at == toks.len()).then_some(v)
}

/// An integer literal as the assembler reads it: decimal, `0x` hex, `0b`
/// binary, a leading-zero octal, or a character `'a'`.
pub fn literal(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() >= 3 && b[0] == b'\'' && b[b.len() - 1] == b'\'' {
        let mut cs = s[1..s.len() - 1].chars();
        let c = cs.next()?;
        return cs.next().is_none().then_some(c as i64);
    }
    let (digits, radix) = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(bin) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        (bin, 2)
    } else if s.len() > 1 && s.starts_with('0') && s.bytes().all(|c| c.is_ascii_digit()) {
        (&s[1..], 8)
    } else {
        (s, 10)
    };
    if digits.is_empty() {
        return None;
    }
    // Values up to 2^64 − 1 are accepted and wrap, as the assembler keeps
    // 64 bits.
    u64::from_str_radix(digits, radix).ok().map(|v| v as i64)
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Num(i64),
    Op(&'static str),
    Open,
    Close,
}

fn tokens(s: &str) -> Option<Vec<Tok>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b' ' || c == b'\t' {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() || c == b'\'' {
            let start = i;
            if c == b'\'' {
                i = s[i + 1..].find('\'').map(|k| i + k + 2)?;
            } else {
                while i < b.len() && b[i].is_ascii_alphanumeric() {
                    i += 1;
                }
            }
            out.push(Tok::Num(literal(&s[start..i])?));
            continue;
        }
        let two = s.get(i..i + 2);
        let op: &'static str = match (two, c) {
            (Some("<<"), _) => "<<",
            (Some(">>"), _) => ">>",
            (_, b'+') => "+",
            (_, b'-') => "-",
            (_, b'*') => "*",
            (_, b'/') => "/",
            (_, b'%') => "%",
            (_, b'|') => "|",
            (_, b'&') => "&",
            (_, b'^') => "^",
            (_, b'~') => "~",
            (_, b'(') => {
                out.push(Tok::Open);
                i += 1;
                continue;
            }
            (_, b')') => {
                out.push(Tok::Close);
                i += 1;
                continue;
            }
            _ => return None,
        };
        out.push(Tok::Op(op));
        i += op.len();
    }
    Some(out)
}

struct Parser<'a> {
    toks: &'a [Tok],
    at: usize,
    /// Prefix operators and parentheses open now (bounded: each is a call).
    depth: u32,
}

/// The deepest nesting of parentheses and prefix operators read; deeper
/// text is not a constant (the assembler's own limit is far lower in use).
const MAX_DEPTH: u32 = 256;

fn precedence(op: &str) -> u8 {
    match op {
        "|" => 1,
        "^" => 2,
        "&" => 3,
        "<<" | ">>" => 4,
        "+" | "-" => 5,
        _ => 6,
    }
}

impl Parser<'_> {
    fn unary(&mut self) -> Option<i64> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        let v = self.prefixed();
        self.depth -= 1;
        v
    }

    fn prefixed(&mut self) -> Option<i64> {
        match self.toks.get(self.at)? {
            Tok::Num(v) => {
                self.at += 1;
                Some(*v)
            }
            Tok::Op("-") => {
                self.at += 1;
                Some(self.unary()?.wrapping_neg())
            }
            Tok::Op("+") => {
                self.at += 1;
                self.unary()
            }
            Tok::Op("~") => {
                self.at += 1;
                Some(!self.unary()?)
            }
            Tok::Open => {
                self.at += 1;
                let v = self.binary(0)?;
                (self.toks.get(self.at) == Some(&Tok::Close)).then_some(())?;
                self.at += 1;
                Some(v)
            }
            _ => None,
        }
    }

    fn binary(&mut self, min: u8) -> Option<i64> {
        let mut lhs = self.unary()?;
        while let Some(Tok::Op(op)) = self.toks.get(self.at) {
            let p = precedence(op);
            if p <= min {
                break;
            }
            self.at += 1;
            let rhs = self.binary(p)?;
            lhs = match *op {
                "+" => lhs.wrapping_add(rhs),
                "-" => lhs.wrapping_sub(rhs),
                "*" => lhs.wrapping_mul(rhs),
                "/" => lhs.checked_div(rhs)?,
                "%" => lhs.checked_rem(rhs)?,
                "<<" => lhs.wrapping_shl(rhs as u32),
                ">>" => lhs.wrapping_shr(rhs as u32),
                "|" => lhs | rhs,
                "&" => lhs & rhs,
                "^" => lhs ^ rhs,
                _ => return None,
            };
        }
        Some(lhs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_fold() {
        for (s, v) in [
            ("32", 32),
            ("-8", -8),
            ("0x10", 16),
            ("0b101", 5),
            ("010", 8),
            ("'a'", 97),
            ("1 << 4", 16),
            ("(1+2)*3", 9),
            ("2+3*4", 14),
            ("10-2-3", 5),
            ("0xffffffffffffffff", -1),
            ("~0", -1),
        ] {
            assert_eq!(eval(s), Some(v), "{s}");
        }
        for s in ["foo", "foo+8", "1+", "", "0x", "(1"] {
            assert_eq!(eval(s), None, "{s}");
        }
    }
}
