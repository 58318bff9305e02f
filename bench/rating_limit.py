#!/usr/bin/env python3
"""The best Spearman(puzzle rating, hidden difficulty) any rating system
could reach in the player simulator's world (docs/players.md, "The ceiling
of the puzzle Spearman").

The simulator (bench/player_sim_model.h) gives each puzzle a hidden
difficulty 1500 + PER_SCORE * (score - 0.5) + N(0, NOISE^2) and decides each
play by the Elo logistic. This script draws the same world from the scores
of a real store and rates each puzzle as well as it can be rated: the exact
Bayesian posterior mean (prior: its grade's rating with the noise as its
deviation), from PLAYS plays each, every play at even odds against a player
whose skill is known exactly and equal to the puzzle's estimate so far
(even odds by what is known: the most a binary result can tell). A real
system knows the skills only roughly, cannot always find a player at the
estimate, and cannot spread the plays evenly, so it stays below this
figure.

  foundry export --db STORE --family F --format csv | bench/rating_limit.py [--plays 10 ...]

Prints one line per --plays value: plays per puzzle, the Spearman of the
grade alone, and the ceiling.
"""
import argparse
import csv
import math
import random
import sys


def ranks(values):
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0] * len(values)
    for rank, i in enumerate(order):
        out[i] = rank
    return out


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    mean = (n - 1) / 2
    cov = sum((x - mean) * (y - mean) for x, y in zip(ra, rb))
    var = sum((x - mean) ** 2 for x in ra)
    return cov / var


def sampled_scores(count, seed, program):
    """`count` grade scores drawn at random from the `foundry export
    --format csv` on stdin, and the generator that drew them (seeded)."""
    scores = [float(row["score"]) for row in csv.DictReader(sys.stdin)]
    if not scores:
        sys.exit(f"{program}: no puzzles on stdin (foundry export --format csv)")
    rng = random.Random(seed)
    return rng, [rng.choice(scores) for _ in range(count)]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--plays", type=int, nargs="+", default=[8, 10],
                   help="judged plays per puzzle (each value one line)")
    p.add_argument("--noise-sd", type=float, default=150, help="the simulator's --noise-sd")
    p.add_argument("--per-score", type=float, default=1000,
                   help="the simulator's --hidden-per-score")
    p.add_argument("--sample", type=int, default=4000, help="puzzles drawn from the export")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()

    rng, scores = sampled_scores(args.sample, args.seed, "rating_limit.py")
    q = math.log(10) / 400  # the Elo logistic's slope
    # The posterior on a grid of +-4 noise deviations around the prior mean.
    offsets = [args.noise_sd * k / 20 for k in range(-80, 81)]
    log_prior = [-0.5 * (x / args.noise_sd) ** 2 for x in offsets]
    for plays in args.plays:
        prior_means, hidden, posterior = [], [], []
        for score in scores:
            mean = 1500 + args.per_score * (score - 0.5)
            difficulty = mean + rng.gauss(0, args.noise_sd)
            log_post = list(log_prior)
            estimate = mean
            for _ in range(plays):
                # Each play against a player whose skill is the puzzle's
                # estimate so far: even odds by what is known, the most a
                # binary result can tell (a skill set from the hidden
                # difficulty itself would tell it by the choice of player).
                skill = estimate
                solved = rng.random() < 1 / (1 + math.exp(-q * (skill - difficulty)))
                for k, x in enumerate(offsets):
                    p_solve = 1 / (1 + math.exp(-q * (skill - (mean + x))))
                    log_post[k] += math.log(p_solve if solved else 1 - p_solve)
                top = max(log_post)
                weights = [math.exp(v - top) for v in log_post]
                estimate = mean + sum(w * x for w, x in zip(weights, offsets)) / sum(weights)
            prior_means.append(mean + rng.random() * 1e-9)  # ties in grade broken at random
            hidden.append(difficulty)
            posterior.append(estimate)
        print(f"plays per puzzle {plays:3d}: Spearman of the grade alone "
              f"{spearman(prior_means, hidden):.3f}, ceiling {spearman(posterior, hidden):.3f} "
              f"({len(scores)} puzzles)")


if __name__ == "__main__":
    main()
