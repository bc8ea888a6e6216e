//! Operand forms: the shapes of operation a class models (Definition
//! 23.1.8: an LLVM scheduling class belongs to one form of an instruction,
//! `ADD64rr` and `ADD64rm` are different classes).
//!
//! A form is written as a lab line without its label and opcode: the
//! destinations, if any (`r =`, or `r, r =` for an operation that writes
//! two registers, such as a load pair), then the operands in order, each a set of
//! kinds: `r` a register, `i` an immediate, `m` a memory operand
//! (`ri` either of the first two). The last operand may end in `*`: it
//! then stands for any number of such operands, none included.
//!
//! ```
//! use course_engine::model::form::{Form, Shape, REG, IMM, MEM};
//! let f: Form = "r = r, ri".parse().unwrap();
//! assert!(f.accepts(&Shape { dests: 1, kinds: vec![REG, IMM] }));
//! assert!(!f.accepts(&Shape { dests: 1, kinds: vec![REG, MEM] }));
//! assert_eq!(f.to_string(), "r = r, ri");
//! let pair: Form = "r, r = m".parse().unwrap();
//! assert!(pair.accepts(&Shape { dests: 2, kinds: vec![MEM] }));
//! assert!(!pair.accepts(&Shape { dests: 1, kinds: vec![MEM] }));
//! ```

use std::fmt;
use std::str::FromStr;

/// A register operand (outside an address).
pub const REG: u8 = 1;
/// An immediate operand.
pub const IMM: u8 = 2;
/// A memory operand `[…]`.
pub const MEM: u8 = 4;

/// The most registers one operation writes (a load pair with writeback
/// writes three).
pub const MAX_DESTS: usize = 4;

/// The shape of one written operation: how many registers it writes, and
/// the kind (one of [`REG`], [`IMM`], [`MEM`]) of each operand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// How many registers the operation writes (`r =` one, `r, r =` two).
    pub dests: u8,
    /// Each operand's kind, in order.
    pub kinds: Vec<u8>,
}

impl fmt::Display for Shape {
    /// The shape written as a form: `r = m, r`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Form {
            dests: self.dests,
            operands: self.kinds.clone(),
            repeat: false,
        }
        .fmt(f)
    }
}

/// One operand form a class accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// How many registers the form writes.
    pub dests: u8,
    /// The kinds each operand may be (a bit set of [`REG`], [`IMM`], [`MEM`]).
    pub operands: Vec<u8>,
    /// Whether the last operand repeats any number of times (`*`).
    pub repeat: bool,
}

impl Form {
    /// Whether an operation of this shape has this form.
    pub fn accepts(&self, s: &Shape) -> bool {
        if s.dests != self.dests {
            return false;
        }
        let fits = |k: u8, set: u8| k & set != 0;
        if self.repeat {
            let fixed = self.operands.len() - 1;
            let last = self.operands[fixed];
            s.kinds.len() >= fixed
                && s.kinds[..fixed]
                    .iter()
                    .zip(&self.operands)
                    .all(|(&k, &set)| fits(k, set))
                && s.kinds[fixed..].iter().all(|&k| fits(k, last))
        } else {
            s.kinds.len() == self.operands.len()
                && s.kinds
                    .iter()
                    .zip(&self.operands)
                    .all(|(&k, &set)| fits(k, set))
        }
    }

    /// Whether operand `j` of this form may be of kind `k` (its arity
    /// aside).
    pub fn allows_at(&self, j: usize, k: u8) -> bool {
        let set = match self.operands.get(j) {
            Some(&set) if !(self.repeat && j + 1 == self.operands.len()) => set,
            _ if self.repeat => self.operands[self.operands.len() - 1],
            _ => return false,
        };
        set & k != 0
    }

    /// Whether some operand of the form may be a memory operand.
    pub fn has_memory(&self) -> bool {
        self.operands.iter().any(|&k| k & MEM != 0)
    }

    /// The folded-load form of a register form (Definition 23.1.8): its
    /// first operand that may be a register becomes the memory operand.
    /// `None` for a form without exactly one destination or without a
    /// register operand.
    pub fn folded(&self) -> Option<Form> {
        if self.dests != 1 || self.repeat {
            return None;
        }
        let at = self.operands.iter().position(|&k| k & REG != 0)?;
        let mut f = self.clone();
        f.operands[at] = MEM;
        Some(f)
    }
}

impl FromStr for Form {
    type Err = String;

    /// Reads `r = r, i`, `r, r = m`, `m, r`, `r = ri*`, `` (nothing).
    fn from_str(s: &str) -> Result<Form, String> {
        let (dests, rest) = match s.split_once('=') {
            Some((d, rest)) => {
                let written: Vec<&str> = d.split(',').map(str::trim).collect();
                if written.iter().any(|w| *w != "r") {
                    return Err(format!(
                        "the destinations of a form are 'r' each ('r =' or 'r, r ='), got '{}'",
                        d.trim()
                    ));
                }
                if written.len() > MAX_DESTS {
                    return Err(format!(
                        "'{s}' writes {} registers; a form writes at most {MAX_DESTS}",
                        written.len()
                    ));
                }
                (written.len() as u8, rest)
            }
            None => (0, s),
        };
        let mut operands = Vec::new();
        let mut repeat = false;
        let rest = rest.trim();
        if !rest.is_empty() {
            let parts: Vec<&str> = rest.split(',').map(str::trim).collect();
            for (j, part) in parts.iter().enumerate() {
                let (kinds, star) = match part.strip_suffix('*') {
                    Some(k) => (k, true),
                    None => (*part, false),
                };
                if star && j + 1 != parts.len() {
                    return Err(format!("only the last operand of '{s}' may repeat ('*')"));
                }
                repeat = star;
                let mut set = 0u8;
                for c in kinds.chars() {
                    set |= match c {
                        'r' => REG,
                        'i' => IMM,
                        'm' => MEM,
                        _ => {
                            return Err(format!(
                                "'{part}' in '{s}' is not an operand kind (r register, i immediate, m memory)"
                            ));
                        }
                    };
                }
                if set == 0 {
                    return Err(format!("an empty operand in '{s}'"));
                }
                operands.push(set);
            }
        }
        if operands.iter().filter(|&&k| k == MEM).count() > 1 {
            return Err(format!("'{s}' has two memory operands (at most one)"));
        }
        Ok(Form {
            dests,
            operands,
            repeat,
        })
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for k in 0..self.dests {
            f.write_str(if k == 0 { "r" } else { ", r" })?;
        }
        if self.dests > 0 {
            f.write_str(" =")?;
        }
        for (j, &k) in self.operands.iter().enumerate() {
            f.write_str(if j > 0 {
                ", "
            } else if self.dests > 0 {
                " "
            } else {
                ""
            })?;
            for (bit, c) in [(REG, 'r'), (IMM, 'i'), (MEM, 'm')] {
                if k & bit != 0 {
                    write!(f, "{c}")?;
                }
            }
        }
        if self.repeat {
            f.write_str("*")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(dest: bool, kinds: &[u8]) -> Shape {
        Shape {
            dests: u8::from(dest),
            kinds: kinds.to_vec(),
        }
    }

    #[test]
    fn forms_read_and_print_back() {
        for s in [
            "r = r, r",
            "r = ri*",
            "m, ri",
            "r",
            "",
            "r = m, r, r",
            "r =",
            "r, r = m",
            "r, r, r = m, i",
        ] {
            let f: Form = s.parse().unwrap();
            assert_eq!(f.to_string(), s);
        }
        assert!("x = r".parse::<Form>().is_err());
        assert!("r = q".parse::<Form>().is_err());
        assert!("r = r*, r".parse::<Form>().is_err());
        assert!("r = m, m".parse::<Form>().is_err());
        assert!("r = r, ".parse::<Form>().is_err());
        assert!("r, x = m".parse::<Form>().is_err());
        assert!("r, r, r, r, r = m".parse::<Form>().is_err());
    }

    #[test]
    fn a_form_accepts_its_shapes_only() {
        let alu: Form = "r = ri*".parse().unwrap();
        assert!(alu.accepts(&shape(true, &[])));
        assert!(alu.accepts(&shape(true, &[REG, IMM, REG])));
        assert!(!alu.accepts(&shape(true, &[REG, MEM])));
        assert!(!alu.accepts(&shape(false, &[REG])));
        let st: Form = "m, r".parse().unwrap();
        assert!(st.accepts(&shape(false, &[MEM, REG])));
        assert!(!st.accepts(&shape(false, &[REG, MEM])));
        assert!(!st.accepts(&shape(false, &[MEM])));
        let fma: Form = "r = r, r, r".parse().unwrap();
        assert_eq!(fma.folded().unwrap().to_string(), "r = m, r, r");
        assert_eq!("m, r".parse::<Form>().unwrap().folded(), None);
        let pair: Form = "r, r = m".parse().unwrap();
        assert!(pair.accepts(&Shape {
            dests: 2,
            kinds: vec![MEM]
        }));
        assert!(!pair.accepts(&shape(true, &[MEM])));
        assert_eq!(pair.folded(), None);
    }
}
