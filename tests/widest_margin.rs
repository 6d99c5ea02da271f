//! `widest_margin` on threads (issue 37) decides as measuring the finalists one by one: a
//! finalist measured while those before it are still being measured stops at a lower bound,
//! and a walk that stops there decides as one that stops later. Checked on synthetic walks
//! (each finalist's margins over a session, walked in order, stopping once the smallest so far
//! is at most `stop_at`, as `smallest_margin` walks) against the one-by-one rule written out
//! here, on 1, 2, 3 and 8 threads.

use anglerpose::fishing::{MARGIN_QUANTUM, MARGIN_REACH, widest_margin};

/// A deterministic spread of walks: finalist `k`'s margin at instant `i`.
fn walks(seed: u64, finalists: usize, instants: usize) -> Vec<Vec<f64>> {
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..finalists)
        .map(|_| {
            let floor = next() * 0.32;
            (0..instants)
                .map(|_| (floor + next() * 0.1).min(MARGIN_REACH))
                .collect()
        })
        .collect()
}

/// `smallest_margin`'s walk: the smallest margin so far, stopping once it is at most
/// `stop_at` (0: never).
fn walk(margins: &[f64], stop_at: f64) -> f64 {
    let mut smallest = MARGIN_REACH;
    for &m in margins {
        smallest = smallest.min(m);
        if smallest <= stop_at {
            break;
        }
    }
    smallest
}

/// The rule, one finalist after another.
fn one_by_one(walks: &[Vec<f64>], finalists: &[usize]) -> Option<(usize, f64)> {
    let (&first, rest) = finalists.split_first()?;
    let mut widest = (first, walk(&walks[first], 0.0));
    for &k in rest {
        if widest.1 >= MARGIN_REACH {
            break;
        }
        let m = walk(&walks[k], widest.1 + MARGIN_QUANTUM);
        if m > widest.1 + MARGIN_QUANTUM {
            widest = (k, m);
        }
    }
    Some(widest)
}

#[test]
fn the_widest_margin_is_the_one_by_one_choice_on_any_number_of_threads() {
    let mut differing_from_first = 0;
    for seed in 0..200 {
        let all = walks(seed, 12, 60);
        // Finalists in a scrambled order, as scores rank them.
        let finalists: Vec<usize> = (0..12).map(|i| (i * 5 + seed as usize) % 12).collect();
        let want = one_by_one(&all, &finalists);
        if want.is_some_and(|(k, _)| k != finalists[0]) {
            differing_from_first += 1;
        }
        for threads in [1, 2, 3, 8] {
            let got = widest_margin::<()>(&finalists, threads, |k, stop| Ok(walk(&all[k], stop)));
            assert_eq!(got, Ok(want), "seed {seed}, {threads} threads");
        }
    }
    // The walks must make the rule choose: otherwise the test shows nothing.
    assert!(differing_from_first > 20, "{differing_from_first}");
}

#[test]
fn an_error_is_returned_only_where_one_by_one_would_meet_it() {
    // Margins well below MARGIN_REACH: nothing ends the search early.
    let all: Vec<Vec<f64>> = (0..6).map(|k| vec![0.05 + 0.01 * k as f64; 30]).collect();
    let finalists: Vec<usize> = (0..6).collect();
    for threads in [1, 2, 4] {
        // An error at the third finalist: one by one meets it.
        let got = widest_margin(&finalists, threads, |k, stop| {
            if k == 2 {
                Err(k)
            } else {
                Ok(walk(&all[k], stop))
            }
        });
        assert_eq!(got, Err(2), "{threads} threads");
        // A first finalist at MARGIN_REACH ends the search before the error.
        let got = widest_margin(&finalists, threads, |k, stop| match k {
            0 => Ok(MARGIN_REACH),
            2 => Err(k),
            _ => Ok(walk(&all[k], stop)),
        });
        assert_eq!(got, Ok(Some((0, MARGIN_REACH))), "{threads} threads");
    }
    assert_eq!(widest_margin::<()>(&[], 2, |_, _| Ok(0.0)), Ok(None));
}
