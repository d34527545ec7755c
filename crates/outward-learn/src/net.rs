//! `linenet`'s trainer: seed 004's 12-5-1 logistic network trained by backpropagation, as
//! published (learning rate 0.2, until the mean squared error is at most 0.05), written as an
//! `outward_core::methods::linenet::LineNetModel`.
//!
//! Procedure ([`train`]):
//! 1. Samples are the labelled lines of every page ([`page_line_samples`]): a line is content
//!    when most of its tokens are in its page's truth ([`TruthBag::is_content`]); lines
//!    without tokens are not samples. Classes are not rebalanced (the paper does not).
//! 2. Weights start uniform in [-0.5, 0.5] from a fixed-seed SplitMix64.
//! 3. Each epoch visits every sample once, in a fixed-seed shuffled order (a new order per
//!    epoch), and updates the weights after each sample (online backpropagation of the
//!    squared error through the logistic units, learning rate 0.2).
//! 4. Training stops after the first epoch whose mean squared error (measured with the
//!    weights at the end of the epoch, over all samples) is at most the target 0.05, or at
//!    the epoch cap (`max_epochs`, default 100: on the 745,000 lines of the eight dev sets
//!    the error settles at 0.18 and never reaches 0.05; 100 epochs take about 35 s).
//!
//! Invariants: deterministic to the bit (fixed seed, sequential f64 arithmetic): the same
//! samples in the same order and parameters give the same model bytes.

use outward_core::Page;
use outward_core::methods::linenet::{HIDDEN, INPUTS, LineNetModel, logsig, page_line_inputs};

use crate::{LearnError, TruthBag};

/// A labelled line: its 12 network inputs and whether it is content.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineSample {
    pub x: [f32; INPUTS],
    pub content: bool,
}

/// The labelled lines of `page` (those with tokens), in page order.
pub fn page_line_samples(page: &Page, truth: &TruthBag) -> Vec<LineSample> {
    let (lines, xs) = page_line_inputs(page);
    lines
        .iter()
        .zip(xs)
        .filter_map(|(line, x)| {
            Some(LineSample {
                x,
                content: truth.is_content(&line.text)?,
            })
        })
        .collect()
}

/// Training settings.
#[derive(Debug, Clone, PartialEq)]
pub struct NetParams {
    pub seed: u64,
    pub learning_rate: f64,
    /// Stop when an epoch's mean squared error is at most this.
    pub target_mse: f64,
    pub max_epochs: usize,
}

impl Default for NetParams {
    fn default() -> Self {
        NetParams {
            seed: 0x5eed_0004,
            learning_rate: 0.2,
            target_mse: 0.05,
            max_epochs: 100,
        }
    }
}

/// What training did.
#[derive(Debug, Clone, PartialEq)]
pub struct NetReport {
    pub samples: usize,
    pub content: usize,
    pub epochs: usize,
    /// Mean squared error after the last epoch.
    pub mse: f64,
    pub reached_target: bool,
    /// Share of samples the final model labels right.
    pub accuracy: f64,
}

/// SplitMix64: the fixed-seed generator of initial weights and sample orders.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in 0..n (n > 0), by rejection.
    fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let r = self.next();
            if r < zone {
                return r % n;
            }
        }
    }
}

/// The network's weights while training (f64).
struct Net {
    hidden: [[f64; INPUTS + 1]; HIDDEN],
    output: [f64; HIDDEN + 1],
}

impl Net {
    /// Hidden activations and output for `x`.
    fn forward(&self, x: &[f64; INPUTS]) -> ([f64; HIDDEN], f64) {
        let mut h = [0f64; HIDDEN];
        let mut o = self.output[HIDDEN];
        for (j, unit) in self.hidden.iter().enumerate() {
            let mut a = unit[INPUTS];
            for (wi, xi) in unit.iter().zip(x) {
                a += wi * xi;
            }
            h[j] = logsig(a);
            o += self.output[j] * h[j];
        }
        (h, logsig(o))
    }

    /// One backpropagation step on `(x, t)`; the squared error before it.
    fn step(&mut self, x: &[f64; INPUTS], t: f64, lr: f64) -> f64 {
        let (h, y) = self.forward(x);
        let err = y - t;
        let delta_out = err * y * (1.0 - y);
        for ((unit, w), hj) in self.hidden.iter_mut().zip(&mut self.output).zip(h) {
            let delta_h = delta_out * *w * hj * (1.0 - hj);
            *w -= lr * delta_out * hj;
            for (wi, xi) in unit.iter_mut().zip(x) {
                *wi -= lr * delta_h * xi;
            }
            unit[INPUTS] -= lr * delta_h;
        }
        self.output[HIDDEN] -= lr * delta_out;
        err * err
    }
}

/// Trains `linenet`'s model on `samples` (see the module doc).
pub fn train(
    samples: &[LineSample],
    params: &NetParams,
) -> Result<(LineNetModel, NetReport), LearnError> {
    if !(params.learning_rate.is_finite() && params.learning_rate > 0.0) {
        return Err(LearnError::Params("the learning rate must be positive"));
    }
    if params.max_epochs == 0 || !params.target_mse.is_finite() {
        return Err(LearnError::Params(
            "need an epoch and a finite target error",
        ));
    }
    if samples.is_empty() {
        return Err(LearnError::NoSamples);
    }
    let content = samples.iter().filter(|s| s.content).count();
    if content == 0 || content == samples.len() {
        return Err(LearnError::OneClass(content > 0));
    }
    let mut rng = SplitMix(params.seed);
    let mut net = Net {
        hidden: [[0.0; INPUTS + 1]; HIDDEN],
        output: [0.0; HIDDEN + 1],
    };
    for w in net.hidden.iter_mut().flatten().chain(net.output.iter_mut()) {
        *w = rng.unit() - 0.5;
    }
    let xs: Vec<[f64; INPUTS]> = samples.iter().map(|s| s.x.map(f64::from)).collect();
    let ts: Vec<f64> = samples
        .iter()
        .map(|s| if s.content { 1.0 } else { 0.0 })
        .collect();
    let mse_of = |net: &Net| {
        xs.iter()
            .zip(&ts)
            .map(|(x, t)| (net.forward(x).1 - t).powi(2))
            .sum::<f64>()
            / xs.len() as f64
    };
    let mut order: Vec<usize> = (0..samples.len()).collect();
    let (mut epochs, mut mse) = (0, f64::INFINITY);
    while epochs < params.max_epochs {
        for i in (1..order.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            order.swap(i, j);
        }
        for &k in &order {
            net.step(&xs[k], ts[k], params.learning_rate);
        }
        epochs += 1;
        mse = mse_of(&net);
        if mse <= params.target_mse {
            break;
        }
    }
    let correct = xs
        .iter()
        .zip(&ts)
        .filter(|(x, t)| (net.forward(x).1 > 0.5) == (**t > 0.5))
        .count();
    let hidden = net.hidden.map(|u| u.map(|w| w as f32));
    let output = net.output.map(|w| w as f32);
    let model = LineNetModel::new(hidden, output).map_err(|e| LearnError::Model(e.to_string()))?;
    let report = NetReport {
        samples: samples.len(),
        content,
        epochs,
        mse,
        reached_target: mse <= params.target_mse,
        accuracy: correct as f64 / samples.len() as f64,
    };
    Ok((model, report))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Generated pages: a menu of links, an article whose first line repeats the title, a
    /// footer.
    fn fixture() -> Vec<LineSample> {
        let mut samples = Vec::new();
        for n in 0..30 {
            let words: String = (0..(20 + n % 7))
                .map(|k| format!("word{} ", (k * 13 + n) % 50))
                .collect();
            let menu: String = (0..(3 + n % 4))
                .map(|k| format!("<li><a href=/s{k}>Section {k}</a></li>"))
                .collect();
            let html = format!(
                "<title>Story {n} of the river - Gazette</title><body><ul>{menu}</ul>\
                 <h1>Story {n} of the river</h1><p>{words}</p><p>{words} and more.</p>\
                 <div class=foot>Contact <a href=/c>us</a> today</div></body>"
            );
            let truth = format!("Story {n} of the river\n{words}\n{words} and more.");
            samples.extend(page_line_samples(
                &Page::new(&html, None),
                &TruthBag::new(&truth),
            ));
        }
        samples
    }

    fn small() -> NetParams {
        NetParams {
            max_epochs: 200,
            ..NetParams::default()
        }
    }

    #[test]
    fn training_is_deterministic_and_learns_the_fixture() {
        let samples = fixture();
        assert!(samples.iter().any(|s| s.content) && samples.iter().any(|s| !s.content));
        let (a, report) = train(&samples, &small()).unwrap();
        let (b, _) = train(&samples, &small()).unwrap();
        assert_eq!(a.to_bytes(), b.to_bytes());
        assert!(report.reached_target, "{report:?}");
        assert!(report.epochs >= 1 && report.mse <= 0.05, "{report:?}");
        let correct = samples
            .iter()
            .filter(|s| (a.score(&s.x) > 0.5) == s.content)
            .count();
        assert!(
            correct * 10 >= samples.len() * 9,
            "{correct} of {}",
            samples.len()
        );
        // Another seed starts elsewhere: another model.
        let other = NetParams { seed: 7, ..small() };
        assert_ne!(train(&samples, &other).unwrap().0.to_bytes(), a.to_bytes());
    }

    #[test]
    fn bad_inputs_are_errors() {
        let one = LineSample {
            x: [0.5; INPUTS],
            content: false,
        };
        assert_eq!(train(&[], &small()).err(), Some(LearnError::NoSamples));
        assert_eq!(
            train(&[one, one], &small()).err(),
            Some(LearnError::OneClass(false))
        );
        let bad = NetParams {
            learning_rate: 0.0,
            ..small()
        };
        assert!(matches!(
            train(&fixture(), &bad),
            Err(LearnError::Params(_))
        ));
    }
}
