#!/usr/bin/env python3
"""What the way puzzles are served, and a refit of every rating, could add
to Spearman(puzzle rating, hidden difficulty) (docs/players.md, "What
serving and a refit could add").

A model of bench/player_sim.sh's adaptive mode, fast enough to try many
rules: the simulator's world (bench/player_sim_model.h: hidden difficulty
1500 + 1000 (score - 0.5) + N(0, 150^2) from a store's own grade scores,
skill N(1500, 350^2), the Elo logistic), players drawn at random, each
served as the store's NextPuzzle serves (never-judged puzzles within
--window of the target first, looking at most 4K of them; else the K
nearest by rating; never a puzzle the player had), and Glicko-2 as
ratings/glicko2.h with the coordinator's defaults (tau 0.75, players from
1500 / 500 / 0.09, puzzles from their grade's rating at RD 200, RD kept in
[45, 500], changes within +-700). What it may change: the draw among the K
(--pick), the puzzles' volatility, and a joint maximum-a-posteriori refit
of all ratings from the plays at the end (--refit passes).

  foundry export --db STORE --family secret-number --format csv | bench/rating_policy.py [flags]

Prints the online Spearman figures, then one line per refit pass.
"""
import argparse
import bisect
import math

from rating_limit import sampled_scores, spearman

SCALE = 400 / math.log(10)  # Glicko-2's 173.7178
Q = 1 / SCALE               # the Elo logistic's slope


def glicko2(r, rd, vol, r_other, rd_other, score, tau):
    """One rating period with one game (Glickman's steps 2-8), then the
    store's clamps. Returns the new (rating, deviation, volatility)."""
    mu, phi = (r - 1500) / SCALE, rd / SCALE
    mu_j, phi_j = (r_other - 1500) / SCALE, rd_other / SCALE
    g = 1 / math.sqrt(1 + 3 * phi_j * phi_j / math.pi ** 2)
    e = 1 / (1 + math.exp(-g * (mu - mu_j)))
    v = 1 / (g * g * e * (1 - e))
    delta = v * g * (score - e)
    a = math.log(vol * vol)

    def f(x):
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - \
            (x - a) / (tau * tau)

    lo = a
    if delta * delta > phi * phi + v:
        hi = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        hi = a - k * tau
    f_lo, f_hi = f(lo), f(hi)
    while abs(hi - lo) > 1e-6:  # Illinois, as in Glickman's paper
        c = lo + (lo - hi) * f_lo / (f_hi - f_lo)
        f_c = f(c)
        if f_c * f_hi <= 0:
            lo, f_lo = hi, f_hi
        else:
            f_lo /= 2
        hi, f_hi = c, f_c
    new_vol = math.exp(lo / 2)
    phi_star = math.sqrt(phi * phi + new_vol * new_vol)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_r = 1500 + SCALE * (mu + new_phi * new_phi * g * (score - e))
    new_r = min(max(new_r, r - 700), r + 700)
    return new_r, min(max(SCALE * new_phi, 45), 500), new_vol


def nearest(entries, target, servable, limit, window=None, look=None):
    """Up to `limit` servable items of the sorted (rating, ..., item) list,
    nearest `target` first; within `window` of it and looking at no more
    than `look` entries when given."""
    up = bisect.bisect_left(entries, (target,))
    down = up - 1
    out, looked = [], 0
    while len(out) < limit:
        above = entries[up] if up < len(entries) else None
        below = entries[down] if down >= 0 else None
        if above is None and below is None:
            break
        if below is None or (above is not None and above[0] - target <= target - below[0]):
            entry, up = above, up + 1
        else:
            entry, down = below, down - 1
        if window is not None and abs(entry[0] - target) > window:
            break
        looked += 1
        if look is not None and looked > look:
            break
        if servable(entry[-1]):
            out.append(entry[-1])
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--puzzles", type=int, default=2000)
    p.add_argument("--players", type=int, default=500)
    p.add_argument("--plays", type=int, default=20000)
    p.add_argument("--k", type=int, default=8, help="the coordinator's --next-puzzle-nearest")
    p.add_argument("--window", type=float, default=50,
                   help="the coordinator's --next-puzzle-new-window (0: none)")
    p.add_argument("--pick", choices=["random", "least-played"], default="random",
                   help="the draw among the K: at random (the store's), or the least played")
    p.add_argument("--puzzle-volatility", type=float, default=0.09)
    p.add_argument("--refit", type=int, default=0, help="passes of the joint refit at the end")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()

    rng, scores = sampled_scores(args.puzzles, args.seed, "rating_policy.py")
    initial = [1500 + 1000 * (s - 0.5) for s in scores]
    hidden = [x + rng.gauss(0, 150) for x in initial]
    skill = [rng.gauss(1500, 350) for _ in range(args.players)]

    rating, rd = list(initial), [200.0] * args.puzzles
    vol = [args.puzzle_volatility] * args.puzzles
    plays = [0] * args.puzzles
    p_rating, p_rd, p_vol = [1500.0] * args.players, [500.0] * args.players, [0.09] * args.players
    had = [set() for _ in range(args.players)]
    tie = [rng.random() for _ in range(args.puzzles)]  # a group of equal scores, entered at random
    never_judged = sorted((initial[i], tie[i], i) for i in range(args.puzzles))
    judged = []  # (rating, puzzle)
    log = []

    for _ in range(args.plays):
        u = rng.randrange(args.players)
        target = p_rating[u]

        def servable(i):
            return i not in had[u]

        offers = []
        if args.window > 0:
            offers = nearest(never_judged, target, servable, args.k, args.window, 4 * args.k)
        if not offers:
            both = nearest(never_judged, target, servable, args.k) + \
                nearest(judged, target, servable, args.k)
            offers = sorted(both, key=lambda i: abs(rating[i] - target))[:args.k]
        if not offers:
            continue
        if args.pick == "random":
            i = rng.choice(offers)
        else:
            i = min(offers, key=lambda i: (plays[i], rng.random()))
        had[u].add(i)
        solved = 1.0 if rng.random() < 1 / (1 + math.exp(-Q * (skill[u] - hidden[i]))) else 0.0
        log.append((u, i, solved))
        if plays[i] == 0:
            never_judged.remove((initial[i], tie[i], i))
        else:
            judged.pop(bisect.bisect_left(judged, (rating[i], i)))
        new_player = glicko2(p_rating[u], p_rd[u], p_vol[u], rating[i], rd[i], solved, 0.75)
        new_puzzle = glicko2(rating[i], rd[i], vol[i], p_rating[u], p_rd[u], 1 - solved, 0.75)
        p_rating[u], p_rd[u], p_vol[u] = new_player
        rating[i], rd[i], vol[i] = new_puzzle
        plays[i] += 1
        bisect.insort(judged, (rating[i], i))

    ordered = sorted(plays)
    print(f"online: puzzles {spearman(rating, hidden):.3f}, players {spearman(p_rating, skill):.3f}; "
          f"{sum(1 for n in plays if n)} of {args.puzzles} puzzles played, median "
          f"{ordered[len(ordered) // 2]} plays, most {ordered[-1]}")

    # The joint refit: the posterior mode of every rating given all plays,
    # each puzzle's prior its grade's rating (sd 150), each player's
    # N(1500, 350^2); coordinate-wise Newton steps, players then puzzles.
    by_player = [[] for _ in range(args.players)]
    by_puzzle = [[] for _ in range(args.puzzles)]
    for u, i, solved in log:
        by_player[u].append((i, solved))
        by_puzzle[i].append((u, solved))
    fit_p, fit_u = list(rating), list(p_rating)
    for n in range(args.refit):
        for u in range(args.players):
            for _ in range(2):
                grad, hess = -(fit_u[u] - 1500) / 350 ** 2, 1 / 350 ** 2
                for i, solved in by_player[u]:
                    pr = 1 / (1 + math.exp(-Q * (fit_u[u] - fit_p[i])))
                    grad += Q * (solved - pr)
                    hess += Q * Q * pr * (1 - pr)
                fit_u[u] += grad / hess
        for i in range(args.puzzles):
            for _ in range(2):
                grad, hess = -(fit_p[i] - initial[i]) / 150 ** 2, 1 / 150 ** 2
                for u, solved in by_puzzle[i]:
                    pr = 1 / (1 + math.exp(-Q * (fit_u[u] - fit_p[i])))
                    grad -= Q * (solved - pr)
                    hess += Q * Q * pr * (1 - pr)
                fit_p[i] += grad / hess
        print(f"refit pass {n + 1}: puzzles {spearman(fit_p, hidden):.3f}, "
              f"players {spearman(fit_u, skill):.3f}")


if __name__ == "__main__":
    main()
