//! Which side of the precision/recall trade an extraction leans to (`--favor`, after
//! trafilatura's `favor_precision` / `favor_recall`): [`Favor`]. The default weighs both
//! alike. A method reads it as the β of the F-measure it maximises, F_β = (1 + β²)·P·R /
//! (β²·P + R): β = 1 the balanced F1, β = ½ precision (a corpus builder who would rather
//! lose a paragraph than keep a menu), β = 2 recall.
//!
//! Invariants: [`Favor::Balanced`] changes nothing (β = 1 is the F1 the methods already
//! maximise); names round-trip through [`Favor::parse`].

/// Which side of the precision/recall trade an extraction leans to (see the module docs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Favor {
    /// Precision and recall weighed alike (F1).
    #[default]
    Balanced,
    /// Precision weighed four times as much as recall (F_½).
    Precision,
    /// Recall weighed four times as much as precision (F_2).
    Recall,
}

impl Favor {
    /// Every value, the default first.
    pub const ALL: [Favor; 3] = [Favor::Balanced, Favor::Precision, Favor::Recall];

    pub fn name(self) -> &'static str {
        match self {
            Favor::Balanced => "balanced",
            Favor::Precision => "precision",
            Favor::Recall => "recall",
        }
    }

    /// A line saying what the value does, for `--help`.
    pub fn summary(self) -> &'static str {
        match self {
            Favor::Balanced => "precision and recall alike (F1; the default)",
            Favor::Precision => {
                "rather lose a paragraph than keep page furniture (F0.5: the learned stage prunes more)"
            }
            Favor::Recall => {
                "rather keep furniture than lose the story (F2: the learned stage prunes less, doubtful pages give more of their text)"
            }
        }
    }

    /// The value called `name`.
    pub fn parse(name: &str) -> Option<Favor> {
        Favor::ALL.into_iter().find(|f| f.name() == name)
    }

    /// β² of the F-measure this value maximises.
    pub fn beta_squared(self) -> f32 {
        match self {
            Favor::Balanced => 1.0,
            Favor::Precision => 0.25,
            Favor::Recall => 4.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_balanced_is_f1() {
        for f in Favor::ALL {
            assert_eq!(Favor::parse(f.name()), Some(f));
        }
        assert_eq!(Favor::parse("speed"), None);
        assert_eq!(Favor::default(), Favor::Balanced);
        assert_eq!(Favor::Balanced.beta_squared(), 1.0);
        assert!(Favor::Precision.beta_squared() < 1.0 && Favor::Recall.beta_squared() > 1.0);
    }
}
