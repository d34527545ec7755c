//! Run and block statistics, gathered while text is written: every non-blank text run with
//! its CJK-aware measures and flags (in a link, in boilerplate, in a heading, in content),
//! and per block (the runs between two block boundaries) their sums.
//!
//! Invariants: text is written escaped (`<`/`>` only delimit tags in the output); blank runs
//! become one space; a block is recorded only when it holds a non-blank run.

use super::*;

impl Cleaner<'_> {
    pub(super) fn text(&mut self, from: usize, to: usize) {
        let seg = &self.src[from..to];
        if self.head_open() && !seg.iter().all(|&b| is_ws(b)) {
            self.close_head();
        }
        if self.suppress > 0 {
            if self.hidden_open {
                self.hidden_held += u64::from(measure(seg).weight);
            }
            return;
        }
        self.push_text(seg);
    }

    /// Append text bytes, escaping `<` and `>`.
    pub(super) fn push_text(&mut self, seg: &[u8]) {
        if self.run_start.is_none() {
            self.run_start = Some(self.out.len());
        }
        let mut rest = seg;
        while let Some(at) = find_angle(rest) {
            self.out.extend_from_slice(&rest[..at]);
            self.out
                .extend_from_slice(if rest[at] == b'<' { b"&lt;" } else { b"&gt;" });
            rest = &rest[at + 1..];
        }
        self.out.extend_from_slice(rest);
    }

    /// Close the current text run (before any tag is written).
    #[inline]
    pub(super) fn finish_run(&mut self) {
        // Most tags follow another tag: no run is open.
        if let Some(start) = self.run_start.take() {
            self.finish_run_at(start);
        }
    }

    /// [`Self::finish_run`] of the run that starts at `start` in the output.
    fn finish_run_at(&mut self, start: usize) {
        self.res.nodes_total += 1;
        let bytes = &self.out[start..];
        if bytes.iter().all(|&b| is_ws(b)) {
            self.out.truncate(start);
            self.out.push(b' ');
            return;
        }
        let m = measure(bytes);
        let mut flags = 0;
        if self.link_depth > 0 {
            flags |= IN_LINK;
        }
        if !self.boiler_stack.is_empty() {
            flags |= IN_BOILER;
        }
        if self.heading_depth > 0 {
            flags |= IN_HEADING;
        }
        if self.good_depth > 0 {
            flags |= IN_GOOD;
        }
        let run = TextRun {
            start: start as u32,
            end: self.out.len() as u32,
            measure: m,
            flags,
        };
        self.res.runs.push(run);
        self.res.text_weight += m.weight as u64;
        let b = &mut self.block;
        if self.block_runs == 0 {
            b.start = run.start;
            b.seed = run.start;
            b.flags = flags & !IN_LINK;
            b.boiler_id = self.boiler_stack.last().copied().unwrap_or(NO_BOILER);
        } else if b.link_weight == b.weight && flags & IN_LINK == 0 && b.seed == b.start {
            // First non-link run of a block that so far held only links.
            b.seed = run.start;
        }
        self.block_runs += 1;
        b.weight += m.weight;
        b.chars += m.chars;
        b.punct += m.punct;
        if flags & IN_LINK != 0 {
            b.link_weight += m.weight;
            b.link_runs += u32::from(m.weight > 0);
        } else if m.weight > 0 {
            b.plain_runs += 1;
        }
    }

    pub(super) fn flush_block(&mut self) {
        // A block without runs is still as the last flush (or the start) left it.
        if self.block_runs == 0 {
            return;
        }
        self.res.blocks.push(self.block);
        self.block = BlockStats {
            boiler_id: NO_BOILER,
            ..BlockStats::default()
        };
        self.block_runs = 0;
    }
}
