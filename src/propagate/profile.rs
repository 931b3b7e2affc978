//! Profiles: which propagation rules are switched on (spec §3).

use std::fmt;
use std::str::FromStr;

/// One propagation rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Rule {
    /// A cell with one value removes it from its peers.
    NakedSingle,
    /// A value with one place in a unit goes there.
    HiddenSingle,
    /// A value confined to one line inside a block leaves the rest of that line ("pointing").
    LockedPointing,
    /// A value confined to one block inside a line leaves the rest of that block ("claiming").
    LockedClaiming,
    /// Two cells of a unit with the same two values.
    NakedPair,
    /// Three cells of a unit holding three values between them.
    NakedTriple,
    /// Four cells of a unit holding four values between them.
    NakedQuad,
    /// Two values of a unit confined to the same two cells.
    HiddenPair,
    /// Three values of a unit confined to three cells.
    HiddenTriple,
    /// Four values of a unit confined to four cells.
    HiddenQuad,
}

impl Rule {
    /// Number of rules.
    pub const COUNT: usize = 10;
    /// All rules, cheapest first.
    pub const ALL: [Rule; Rule::COUNT] = [
        Rule::NakedSingle,
        Rule::HiddenSingle,
        Rule::LockedPointing,
        Rule::LockedClaiming,
        Rule::NakedPair,
        Rule::NakedTriple,
        Rule::NakedQuad,
        Rule::HiddenPair,
        Rule::HiddenTriple,
        Rule::HiddenQuad,
    ];

    /// The rule's name on the command line and in statistics (`naked-single`, …).
    pub fn name(self) -> &'static str {
        match self {
            Rule::NakedSingle => "naked-single",
            Rule::HiddenSingle => "hidden-single",
            Rule::LockedPointing => "locked-pointing",
            Rule::LockedClaiming => "locked-claiming",
            Rule::NakedPair => "naked-pair",
            Rule::NakedTriple => "naked-triple",
            Rule::NakedQuad => "naked-quad",
            Rule::HiddenPair => "hidden-pair",
            Rule::HiddenTriple => "hidden-triple",
            Rule::HiddenQuad => "hidden-quad",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of switched-on rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Profile {
    mask: u16,
}

impl Default for Profile {
    fn default() -> Self {
        Profile::DEFAULT
    }
}

impl Profile {
    /// Every rule (the `default` profile).
    pub const DEFAULT: Profile = Profile {
        mask: (1 << Rule::COUNT) - 1,
    };
    /// Naked and hidden singles only (the `singles` profile).
    pub const SINGLES: Profile = Profile {
        mask: (1 << Rule::NakedSingle as u16) | (1 << Rule::HiddenSingle as u16),
    };
    /// No rule: only the contradiction checks run.
    pub const NONE: Profile = Profile { mask: 0 };

    /// Whether `rule` is on.
    #[inline]
    pub const fn has(&self, rule: Rule) -> bool {
        self.mask & (1 << rule as u16) != 0
    }

    /// This profile with `rule` switched on.
    pub const fn with(self, rule: Rule) -> Profile {
        Profile {
            mask: self.mask | (1 << rule as u16),
        }
    }

    /// This profile with `rule` switched off.
    pub const fn without(self, rule: Rule) -> Profile {
        Profile {
            mask: self.mask & !(1 << rule as u16),
        }
    }

    /// Whether every rule of `self` is in `other`.
    pub const fn is_subset_of(&self, other: &Profile) -> bool {
        self.mask & !other.mask == 0
    }

    #[inline]
    pub(crate) const fn has_locked(&self) -> bool {
        self.mask & ((1 << Rule::LockedPointing as u16) | (1 << Rule::LockedClaiming as u16)) != 0
    }

    #[inline]
    pub(crate) const fn has_subsets(&self) -> bool {
        self.mask & !Profile::SINGLES.mask & !(3 << Rule::LockedPointing as u16) != 0
    }

    /// The switched-on rules.
    pub fn rules(&self) -> impl Iterator<Item = Rule> + '_ {
        Rule::ALL.iter().copied().filter(move |r| self.has(*r))
    }
}

/// Profiles print as `default`, `singles`, or a `+`-joined rule list.
impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Profile::DEFAULT {
            return f.write_str("default");
        }
        if *self == Profile::SINGLES {
            return f.write_str("singles");
        }
        if *self == Profile::NONE {
            return f.write_str("none");
        }
        let names: Vec<&str> = self.rules().map(Rule::name).collect();
        f.write_str(&names.join("+"))
    }
}

impl fmt::Debug for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Profile({self})")
    }
}

/// A profile or rule name that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown profile or rule {0:?}: expected a comma-separated list of profiles (default, singles, none) and rules ({rules}), a leading - switching one off, e.g. default,-naked-quad", rules = rule_names())]
pub struct UnknownRule(pub String);

/// Every rule's name, comma-separated.
fn rule_names() -> String {
    Rule::ALL.map(Rule::name).join(", ")
}

impl FromStr for Profile {
    type Err = UnknownRule;

    /// Parses `default`, `singles`, `none`, or `+`/`,`-separated items where each item is a
    /// profile or a rule name, and `-rule` switches a rule off: `default,-naked-quad`.
    fn from_str(s: &str) -> Result<Profile, UnknownRule> {
        let mut profile = Profile::NONE;
        for item in s.split(['+', ',']).map(str::trim).filter(|i| !i.is_empty()) {
            let (off, name) = match item.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let named = match name {
                "default" | "all" => Some(Profile::DEFAULT),
                "singles" => Some(Profile::SINGLES),
                "none" => Some(Profile::NONE),
                _ => None,
            };
            if let Some(p) = named {
                profile = if off {
                    Profile {
                        mask: profile.mask & !p.mask,
                    }
                } else {
                    Profile {
                        mask: profile.mask | p.mask,
                    }
                };
                continue;
            }
            let rule = Rule::ALL
                .iter()
                .copied()
                .find(|r| r.name() == name)
                .ok_or_else(|| UnknownRule(item.to_string()))?;
            profile = if off {
                profile.without(rule)
            } else {
                profile.with(rule)
            };
        }
        Ok(profile)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        assert_eq!("default".parse::<Profile>().unwrap(), Profile::DEFAULT);
        assert_eq!("singles".parse::<Profile>().unwrap(), Profile::SINGLES);
        let p: Profile = "default,-naked-quad".parse().unwrap();
        assert!(!p.has(Rule::NakedQuad) && p.has(Rule::HiddenQuad));
        assert_eq!(p.to_string().parse::<Profile>().unwrap(), p);
        assert!("bogus".parse::<Profile>().is_err());
        assert!(Profile::SINGLES.is_subset_of(&Profile::DEFAULT));
        assert!(!Profile::SINGLES.has_subsets() && !Profile::SINGLES.has_locked());
        assert!(Profile::DEFAULT.has_subsets() && Profile::DEFAULT.has_locked());
        assert!(Profile::NONE.with(Rule::HiddenQuad).has_subsets());
    }
}
