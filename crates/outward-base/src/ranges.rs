//! Membership in a sorted table of inclusive code point ranges (`(first, last)`, ascending,
//! not overlapping): the character classes generated from Unicode data and from the reference
//! implementations we match (score.py's CJK class, spaCy's and Python's classes).

/// Whether `code_point` lies in one of `table`'s ranges (binary search).
pub fn in_ranges(table: &[(u32, u32)], code_point: u32) -> bool {
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < code_point {
                std::cmp::Ordering::Less
            } else if lo > code_point {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_are_inside_and_gaps_are_not() {
        let table = [(10, 20), (30, 30), (40, 50)];
        for inside in [10, 15, 20, 30, 40, 50] {
            assert!(in_ranges(&table, inside), "{inside}");
        }
        for outside in [0, 9, 21, 29, 31, 39, 51] {
            assert!(!in_ranges(&table, outside), "{outside}");
        }
        assert!(!in_ranges(&[], 1));
    }
}
