//! A two-class C-SVM dual solver: sequential minimal optimisation with libsvm's
//! second-order working-set selection (Fan, Chen, Lin 2005), per-sample upper bounds (so
//! classes can be weighted), over a dense precomputed kernel matrix.
//!
//! Solves min ½ αᵀQα − eᵀα subject to 0 ≤ αᵢ ≤ Cᵢ, yᵀα = 0, with Qᵢⱼ = yᵢyⱼKᵢⱼ; the
//! decision function is f(x) = Σ αᵢyᵢK(xᵢ, x) − ρ.
//!
//! Invariants: deterministic (no randomness, a fixed sequential order of floating-point
//! operations: the same inputs give the same bits); O(n) memory besides the kernel matrix
//! and O(n) work per iteration; stops when the maximal KKT violation is below `eps` or after
//! `max_iter` iterations (reported); never panics on consistent inputs (the caller passes a
//! square matrix of `y.len()`² entries; mismatched lengths are refused).

/// Curvature used when the kernel's is not positive (libsvm's TAU).
const TAU: f64 = 1e-12;

/// A solved dual.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// αᵢ, one per training sample.
    pub alpha: Vec<f64>,
    /// ρ: the decision function subtracts it.
    pub rho: f64,
    pub iterations: usize,
    /// True when `max_iter` stopped the solver before the tolerance was met.
    pub hit_max_iter: bool,
}

/// Solves the dual for the `n × n` row-major kernel matrix `k`, labels `y` (true: +1) and
/// per-sample bounds `c`. `None` when the lengths do not agree.
pub fn solve(k: &[f32], y: &[bool], c: &[f64], eps: f64, max_iter: usize) -> Option<Solution> {
    let n = y.len();
    if c.len() != n || k.len() != n.checked_mul(n)? {
        return None;
    }
    let ys: Vec<f64> = y.iter().map(|&p| if p { 1.0 } else { -1.0 }).collect();
    let kd: Vec<f64> = (0..n).map(|i| f64::from(k[i * n + i])).collect();
    let mut alpha = vec![0.0f64; n];
    // G = Qα − e.
    let mut grad = vec![-1.0f64; n];
    let upper = |a: &[f64], i: usize| a[i] >= c[i];
    let lower = |a: &[f64], i: usize| a[i] <= 0.0;
    let mut iterations = 0;
    let mut hit_max_iter = false;
    loop {
        if iterations >= max_iter {
            hit_max_iter = true;
            break;
        }
        // i: the most violating index of I_up.
        let mut gmax = f64::NEG_INFINITY;
        let mut i = usize::MAX;
        for t in 0..n {
            let v = -ys[t] * grad[t];
            let in_up = if ys[t] > 0.0 {
                !upper(&alpha, t)
            } else {
                !lower(&alpha, t)
            };
            if in_up && v >= gmax {
                gmax = v;
                i = t;
            }
        }
        if i == usize::MAX {
            break;
        }
        let ki = &k[i * n..(i + 1) * n];
        // j: the second-order best partner in I_low.
        let mut gmax2 = f64::NEG_INFINITY;
        let mut j = usize::MAX;
        let mut best = f64::INFINITY;
        for t in 0..n {
            let in_low = if ys[t] > 0.0 {
                !lower(&alpha, t)
            } else {
                !upper(&alpha, t)
            };
            if !in_low {
                continue;
            }
            let v = ys[t] * grad[t];
            if v >= gmax2 {
                gmax2 = v;
            }
            let diff = gmax + v;
            if diff > 0.0 {
                let quad = kd[i] + kd[t] - 2.0 * f64::from(ki[t]);
                let quad = if quad > 0.0 { quad } else { TAU };
                let obj = -(diff * diff) / quad;
                if obj <= best {
                    best = obj;
                    j = t;
                }
            }
        }
        if gmax + gmax2 < eps || j == usize::MAX {
            break;
        }
        iterations += 1;
        let kj = &k[j * n..(j + 1) * n];
        let (ci, cj) = (c[i], c[j]);
        let (old_i, old_j) = (alpha[i], alpha[j]);
        let kij = f64::from(ki[j]);
        if ys[i] != ys[j] {
            let quad = kd[i] + kd[j] - 2.0 * kij;
            let quad = if quad > 0.0 { quad } else { TAU };
            let delta = (-grad[i] - grad[j]) / quad;
            let diff = alpha[i] - alpha[j];
            alpha[i] += delta;
            alpha[j] += delta;
            if diff > 0.0 {
                if alpha[j] < 0.0 {
                    alpha[j] = 0.0;
                    alpha[i] = diff;
                }
            } else if alpha[i] < 0.0 {
                alpha[i] = 0.0;
                alpha[j] = -diff;
            }
            if diff > ci - cj {
                if alpha[i] > ci {
                    alpha[i] = ci;
                    alpha[j] = ci - diff;
                }
            } else if alpha[j] > cj {
                alpha[j] = cj;
                alpha[i] = cj + diff;
            }
        } else {
            let quad = kd[i] + kd[j] - 2.0 * kij;
            let quad = if quad > 0.0 { quad } else { TAU };
            let delta = (grad[i] - grad[j]) / quad;
            let sum = alpha[i] + alpha[j];
            alpha[i] -= delta;
            alpha[j] += delta;
            if sum > ci {
                if alpha[i] > ci {
                    alpha[i] = ci;
                    alpha[j] = sum - ci;
                }
            } else if alpha[j] < 0.0 {
                alpha[j] = 0.0;
                alpha[i] = sum;
            }
            if sum > cj {
                if alpha[j] > cj {
                    alpha[j] = cj;
                    alpha[i] = sum - cj;
                }
            } else if alpha[i] < 0.0 {
                alpha[i] = 0.0;
                alpha[j] = sum;
            }
        }
        let (di, dj) = (alpha[i] - old_i, alpha[j] - old_j);
        // G_t += Q_ti Δα_i + Q_tj Δα_j, Q_ti = y_t y_i K_ti.
        let (si, sj) = (ys[i] * di, ys[j] * dj);
        for t in 0..n {
            grad[t] += ys[t] * (si * f64::from(ki[t]) + sj * f64::from(kj[t]));
        }
    }
    // ρ: the mean of y_i G_i over free α, else the middle of the feasible interval.
    let (mut ub, mut lb) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut free, mut sum_free) = (0usize, 0.0f64);
    for t in 0..n {
        let yg = ys[t] * grad[t];
        if upper(&alpha, t) {
            if ys[t] < 0.0 {
                ub = ub.min(yg);
            } else {
                lb = lb.max(yg);
            }
        } else if lower(&alpha, t) {
            if ys[t] > 0.0 {
                ub = ub.min(yg);
            } else {
                lb = lb.max(yg);
            }
        } else {
            free += 1;
            sum_free += yg;
        }
    }
    let rho = if free > 0 {
        sum_free / free as f64
    } else if ub.is_finite() && lb.is_finite() {
        (ub + lb) / 2.0
    } else {
        0.0
    };
    Some(Solution {
        alpha,
        rho,
        iterations,
        hit_max_iter,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rbf(xs: &[[f64; 2]], gamma: f64) -> Vec<f32> {
        let n = xs.len();
        let mut k = vec![0f32; n * n];
        for a in 0..n {
            for b in 0..n {
                let d2: f64 = (0..2).map(|j| (xs[a][j] - xs[b][j]).powi(2)).sum();
                k[a * n + b] = (-gamma * d2).exp() as f32;
            }
        }
        k
    }

    #[test]
    fn separates_two_clusters_and_meets_the_kkt_conditions() {
        let xs: Vec<[f64; 2]> = (0..40)
            .map(|i| {
                let t = i as f64 * 0.37;
                let side = if i % 2 == 0 { 0.0 } else { 1.0 };
                [side + 0.2 * t.sin(), side + 0.2 * t.cos()]
            })
            .collect();
        let y: Vec<bool> = (0..40).map(|i| i % 2 == 1).collect();
        let k = rbf(&xs, 2.0);
        let c = vec![10.0; 40];
        let s = solve(&k, &y, &c, 1e-4, 100_000).unwrap();
        assert!(!s.hit_max_iter);
        let f = |q: usize| -> f64 {
            (0..40)
                .map(|i| s.alpha[i] * if y[i] { 1.0 } else { -1.0 } * f64::from(k[i * 40 + q]))
                .sum::<f64>()
                - s.rho
        };
        for (q, &label) in y.iter().enumerate() {
            assert_eq!(f(q) > 0.0, label, "sample {q}: {}", f(q));
        }
        // Σ α_i y_i = 0 and the bounds hold.
        let balance: f64 = (0..40)
            .map(|i| if y[i] { s.alpha[i] } else { -s.alpha[i] })
            .sum();
        assert!(balance.abs() < 1e-9, "{balance}");
        assert!(s.alpha.iter().all(|&a| (0.0..=10.0).contains(&a)));
        assert!(s.alpha.iter().any(|&a| a > 0.0));
        // Deterministic to the bit.
        assert_eq!(solve(&k, &y, &c, 1e-4, 100_000).unwrap(), s);
    }

    #[test]
    fn a_heavier_class_weight_moves_the_boundary() {
        // Overlapping classes on a line: weighting the positives wins them the middle.
        let xs: Vec<[f64; 2]> = (0..30).map(|i| [i as f64 / 30.0, 0.0]).collect();
        let y: Vec<bool> = (0..30).map(|i| (i * 7) % 30 > 12).collect();
        let k = rbf(&xs, 1.0);
        let count = |cpos: f64| {
            let c: Vec<f64> = y.iter().map(|&p| if p { cpos } else { 1.0 }).collect();
            let s = solve(&k, &y, &c, 1e-3, 100_000).unwrap();
            (0..30)
                .filter(|&q| {
                    (0..30)
                        .map(|i| {
                            s.alpha[i] * if y[i] { 1.0 } else { -1.0 } * f64::from(k[i * 30 + q])
                        })
                        .sum::<f64>()
                        > s.rho
                })
                .count()
        };
        assert!(
            count(20.0) > count(0.05),
            "{} vs {}",
            count(20.0),
            count(0.05)
        );
    }

    #[test]
    fn mismatched_lengths_are_refused() {
        assert!(solve(&[1.0; 3], &[true, false], &[1.0, 1.0], 1e-3, 10).is_none());
        assert!(solve(&[1.0; 4], &[true, false], &[1.0], 1e-3, 10).is_none());
        let one_class = solve(&[1.0; 4], &[true, true], &[1.0, 1.0], 1e-3, 10).unwrap();
        assert!(one_class.alpha.iter().all(|&a| a == 0.0));
    }
}
