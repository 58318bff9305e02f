// bulls_cows_optimal: searches a bulls-cows decision tree (4 digits) of
// least total guesses over every secret and writes it as the data file the
// kOptimal strategy follows (puzzles/bulls_cows/optimal_tree.h describes
// the format). Progress and totals go to stderr.
//
//   bulls_cows_optimal [--no-leading-zero] [--top K] [--top-big K]
//                      [--exact N] [--top-root K] [--estimate-branches B]
//                      [--rank estimate|parts|entropy] [--only BC[,BC...]]
//                      [--merge TREE] [--out FILE]
//   bulls_cows_optimal --polish TREE --exact N [--polish-min M]
//                      [--polish-max L --top K --top-big K]
//                      [--polish-budget NODES] [--polish-every-guess]
//                      [--out FILE]
//
// With a leading zero allowed every first guess is alike (0123 is taken);
// without one, the two classes (with and without a 0) are both searched.
// `--only BC` searches the candidates left by one answer to the first guess
// (01: 0 bulls, 1 cow; a comma-separated list for several); with
// `--merge TREE` (a file this tool wrote) their subtrees in TREE are
// replaced by the ones found, and the whole tree goes to --out (over TREE
// only if it is no worse): some answers can be searched wider than the others (a
// '#' line in the tree records the options of each). The tree is replayed
// against every secret before it is written.
// `--polish TREE` searches again each node of TREE that has M..L
// candidates (L is N unless given), with every useful guess on sets of up
// to N and the best --top / --top-big above (polish.h), giving up a node
// after NODES search nodes, and writes the tree to --out when that saved
// anything; with --polish-every-guess a node's own guess is chosen from
// every useful guess, whatever its size.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "puzzles/bulls_cows/codes.h"
#include "tools/bulls_cows_optimal/polish.h"
#include "tools/bulls_cows_optimal/search.h"

namespace foundry::tools::bulls_cows_optimal {
namespace {

using puzzles::bulls_cows::Universe;

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Plays the tree in `lines` against every secret, as the strategy does (a
// path missing from the tree with at most two candidates: the lower one).
// Returns false, with a message, when it does not find some secret.
bool Replay(const Universe& u, const Searcher& s, const std::vector<std::string>& lines,
            int64_t& total, int& worst) {
  std::map<std::string, uint16_t> tree;
  AddTreeLines(u, lines, tree);
  total = 0;
  worst = 0;
  const std::vector<uint16_t> all(u.allowed().begin(), u.allowed().end());
  for (uint16_t secret : all) {
    std::vector<uint16_t> left = all;
    std::string path;
    for (int guesses = 1;; ++guesses) {
      const auto it = tree.find(path.empty() ? "-" : path);
      if (it == tree.end() && left.size() > 2) {
        std::fprintf(stderr, "no guess for path %s\n", path.c_str());
        return false;
      }
      const uint16_t g = it != tree.end() ? it->second : left.front();
      const int slot = s.SlotOf(g, secret);
      if (slot == s.win_slot()) {
        total += guesses;
        worst = std::max(worst, guesses);
        break;
      }
      left = s.Part(left, g, slot);
      path += s.SlotText(slot);
      if (guesses > kMaxGuesses) {
        std::fprintf(stderr, "secret %s needs more than %d guesses\n", u.Text(secret).c_str(),
                     kMaxGuesses);
        return false;
      }
    }
  }
  return true;
}

// The tree lines and '#' comment lines of a file this tool wrote; false
// when it cannot be read or holds no tree.
bool ReadTree(const std::string& file, std::vector<std::string>& comments,
              std::vector<std::string>& lines) {
  std::ifstream f(file);
  std::string line;
  bool inside = false;
  while (std::getline(f, line)) {
    if (line == "R\"tree(") {
      inside = true;
    } else if (line == ")tree\"") {
      inside = false;
    } else if (inside && !line.empty()) {
      (line.front() == '#' ? comments : lines).push_back(line);
    }
  }
  return !lines.empty();
}

std::string OptionText(const Options& o) {
  return "--exact " + std::to_string(o.exact_size) + " --top " + std::to_string(o.top) +
         " --top-big " + std::to_string(o.top_big) + " --top-root " + std::to_string(o.top_root) +
         (o.estimate_branches != Options().estimate_branches
              ? " --estimate-branches " + std::to_string(o.estimate_branches)
              : "") +
         (o.rank == Options::Rank::kParts     ? " --rank parts"
          : o.rank == Options::Rank::kEntropy ? " --rank entropy"
                                              : "");
}

// The lines of `old` with the subtrees below the first answers in `only`
// replaced by `fresh`, in the order Emit() writes them (first guess, then
// each answer's subtree by slot).
std::vector<std::string> Merge(const Searcher& s, const std::vector<std::string>& old,
                               const std::set<std::string>& only,
                               const std::vector<std::string>& fresh) {
  std::vector<std::string> out;
  for (const std::string& line : old) {
    if (line.starts_with("- ")) out.push_back(line);
  }
  for (int slot = 0; slot < 14; ++slot) {
    const std::string answer = s.SlotText(slot);
    const std::vector<std::string>& from = only.contains(answer) ? fresh : old;
    for (const std::string& line : from) {
      if (line.starts_with(answer)) out.push_back(line);
    }
  }
  return out;
}

// Writes `lines` as the tree file `out`: the header, `comments`, the lines.
bool WriteTree(const std::string& out, bool leading_zero, size_t secrets, int64_t total, int worst,
               const std::vector<std::string>& comments, const std::vector<std::string>& lines) {
  std::ofstream f(out);
  f << "// Generated by bulls_cows_optimal (tools/bulls_cows_optimal/); format in\n"
    << "// puzzles/bulls_cows/optimal_tree.h. Do not edit by hand.\n"
    << "R\"tree(\n"
    << "# length 4, " << (leading_zero ? "leading zero allowed" : "no leading zero") << ", "
    << secrets << " secrets: " << total << " guesses in all, worst " << worst << "\n";
  for (const std::string& line : comments) f << line << "\n";
  for (const std::string& line : lines) f << line << "\n";
  f << ")tree\"\n";
  return f.good();
}

// --polish: the tree in `file` with its small nodes searched again.
int RunPolish(const std::string& file, bool leading_zero, const Options& options, int min_size,
              int max_size, int64_t node_budget, bool every_guess, const std::string& out) {
  std::vector<std::string> comments;
  std::vector<std::string> lines;
  if (!ReadTree(file, comments, lines)) {
    std::fprintf(stderr, "--polish needs a tree this tool wrote: %s\n", file.c_str());
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  const Universe& u = Universe::For(4, leading_zero);
  Searcher searcher(u, options);
  int64_t old_total = 0;
  int old_worst = 0;
  if (!Replay(u, searcher, lines, old_total, old_worst)) return 1;
  std::fprintf(stderr, "%s: total %lld, worst %d; nodes of %d to %d candidates searched again\n",
               file.c_str(), static_cast<long long>(old_total), old_worst, min_size, max_size);
  PolishReport report;
  const std::vector<std::string> polished =
      Polish(u, searcher, lines, min_size, max_size, node_budget, every_guess, report);
  int64_t total = 0;
  int worst = 0;
  if (!Replay(u, searcher, polished, total, worst)) return 1;
  std::fprintf(stderr,
               "%d nodes searched, %d given up, %d improved, %lld guesses saved; replayed: "
               "total %lld, average %.4f, worst %d; %.0f s\n",
               report.searched, report.gave_up, report.improved,
               static_cast<long long>(report.gained), static_cast<long long>(total),
               static_cast<double>(total) / u.allowed().size(), worst, Seconds(start));
  if (total >= old_total || worst > old_worst || out.empty()) return 0;
  comments.erase(comments.begin());  // the header line, written afresh
  comments.push_back("# polished: nodes of " + std::to_string(min_size) + " to " +
                     std::to_string(max_size) + " candidates searched again with " +
                     (every_guess ? "every guess at the node, below it " : "") +
                     OptionText(options));
  return WriteTree(out, leading_zero, u.allowed().size(), total, worst, comments, polished) ? 0 : 1;
}

int Main(int argc, char** argv) {
  bool leading_zero = true;
  Options options;
  std::string out;
  std::set<std::string> only;  // search these answers to the first guess only
  std::string merge;           // with `only`: the tree to put their subtrees in
  std::string polish;          // a tree whose small nodes are searched again
  int polish_min = 3;
  int polish_max = 0;  // 0: --exact
  int64_t polish_budget = 0;
  bool polish_every_guess = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--no-leading-zero") {
      leading_zero = false;
    } else if (arg == "--top" && has_value) {
      options.top = std::atoi(argv[++i]);
    } else if (arg == "--exact" && has_value) {
      options.exact_size = std::atoi(argv[++i]);
    } else if (arg == "--top-root" && has_value) {
      options.top_root = std::atoi(argv[++i]);
    } else if (arg == "--only" && has_value) {
      std::stringstream list(argv[++i]);
      for (std::string answer; std::getline(list, answer, ',');) only.insert(answer);
    } else if (arg == "--top-big" && has_value) {
      options.top_big = std::atoi(argv[++i]);
    } else if (arg == "--estimate-branches" && has_value) {
      options.estimate_branches = std::atoi(argv[++i]);
      if (options.estimate_branches < 2 || options.estimate_branches > 13) {
        std::fprintf(stderr, "--estimate-branches must be 2..13\n");
        return 2;
      }
    } else if (arg == "--rank" && has_value) {
      const std::string rank = argv[++i];
      if (rank == "estimate") {
        options.rank = Options::Rank::kEstimate;
      } else if (rank == "parts") {
        options.rank = Options::Rank::kParts;
      } else if (rank == "entropy") {
        options.rank = Options::Rank::kEntropy;
      } else {
        std::fprintf(stderr, "--rank must be estimate, parts or entropy\n");
        return 2;
      }
    } else if (arg == "--merge" && has_value) {
      merge = argv[++i];
    } else if (arg == "--polish" && has_value) {
      polish = argv[++i];
    } else if (arg == "--polish-min" && has_value) {
      polish_min = std::atoi(argv[++i]);
    } else if (arg == "--polish-max" && has_value) {
      polish_max = std::atoi(argv[++i]);
    } else if (arg == "--polish-budget" && has_value) {
      polish_budget = std::atoll(argv[++i]);
    } else if (arg == "--polish-every-guess") {
      polish_every_guess = true;
    } else if (arg == "--out" && has_value) {
      out = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: bulls_cows_optimal [--no-leading-zero] [--top K] [--top-big K] "
                   "[--exact N] [--top-root K] [--estimate-branches B] "
                   "[--rank estimate|parts|entropy] [--only BC[,BC...]] "
                   "[--merge TREE] [--out FILE]\n"
                   "       bulls_cows_optimal --polish TREE --exact N [--polish-min M] "
                   "[--polish-max L --top K --top-big K] [--polish-budget NODES] "
                   "[--polish-every-guess] [--out FILE]\n");
      return 2;
    }
  }
  if (!polish.empty()) {
    return RunPolish(polish, leading_zero, options, polish_min,
                     polish_max > 0 ? polish_max : options.exact_size, polish_budget,
                     polish_every_guess, out);
  }
  std::vector<std::string> old_comments;
  std::vector<std::string> old_lines;
  if (!merge.empty() && (only.empty() || !ReadTree(merge, old_comments, old_lines))) {
    std::fprintf(stderr, "--merge needs --only and a tree this tool wrote: %s\n", merge.c_str());
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  const Universe& u = Universe::For(4, leading_zero);
  Searcher searcher(u, options);
  const std::vector<uint16_t> all(u.allowed().begin(), u.allowed().end());
  std::fprintf(stderr, "%zu secrets, exact up to %d candidates, top %d (second guess: %s)\n",
               all.size(), options.exact_size, options.top,
               options.top_root > 0 ? std::to_string(options.top_root).c_str() : "all");

  // When merging, the first guess is the tree's own.
  std::vector<uint16_t> firsts = searcher.FirstGuesses();
  if (!merge.empty()) {
    const auto root = std::find_if(old_lines.begin(), old_lines.end(),
                                   [](const std::string& l) { return l.starts_with("- "); });
    const int64_t first = root == old_lines.end() ? -1 : u.Find(root->substr(2));
    if (first < 0) {
      std::fprintf(stderr, "%s has no first guess\n", merge.c_str());
      return 1;
    }
    firsts = {static_cast<uint16_t>(first)};
  }
  std::vector<std::string> fresh;  // with --merge: the subtree found
  for (uint16_t first : firsts) {
    int total = static_cast<int>(all.size());
    for (int slot = 0; slot < 14; ++slot) {
      if (slot == searcher.win_slot()) continue;
      const std::vector<uint16_t> part = searcher.Part(all, first, slot);
      if (part.empty() || (!only.empty() && !only.contains(searcher.SlotText(slot)))) continue;
      const int cost = searcher.Solve(part, {first}, kMaxGuesses - 1);
      total += cost;
      std::fprintf(stderr, "%s %s: %4zu candidates, cost %6d   (%.0f s, %lld nodes)\n",
                   u.Text(first).c_str(), searcher.SlotText(slot).c_str(), part.size(), cost,
                   Seconds(start), static_cast<long long>(searcher.nodes()));
      if (!merge.empty())
        searcher.Emit(part, {first}, kMaxGuesses - 1, searcher.SlotText(slot), fresh);
    }
    std::fprintf(stderr, "first guess %s: total %d, average %.4f\n", u.Text(first).c_str(), total,
                 static_cast<double>(total) / static_cast<double>(all.size()));
  }
  if (!only.empty() && merge.empty()) return 0;

  std::vector<std::string> lines;
  std::vector<std::string> comments;  // after the first line of the header
  int64_t old_total = kInfinity;
  int old_worst = kMaxGuesses;
  if (merge.empty()) {
    searcher.Emit(all, {}, kMaxGuesses, "", lines);
    comments.push_back("# options: " + OptionText(options));
  } else {
    if (!Replay(u, searcher, old_lines, old_total, old_worst)) return 1;
    std::fprintf(stderr, "%s: total %lld, worst %d\n", merge.c_str(),
                 static_cast<long long>(old_total), old_worst);
    lines = Merge(searcher, old_lines, only, fresh);
    // One '#' line per answer searched apart: the options of its last run.
    const auto note = [](const std::string& answer) {
      return "# answer " + answer + " to the first guess: ";
    };
    for (size_t i = 1; i < old_comments.size(); ++i) {
      if (std::none_of(only.begin(), only.end(), [&](const std::string& answer) {
            return old_comments[i].starts_with(note(answer));
          })) {
        comments.push_back(old_comments[i]);
      }
    }
    for (const std::string& answer : only) comments.push_back(note(answer) + OptionText(options));
  }
  int64_t total = 0;
  int worst = 0;
  if (!Replay(u, searcher, lines, total, worst)) return 1;
  std::fprintf(stderr, "tree: %zu lines; replayed: total %lld, average %.4f, worst %d; %.0f s\n",
               lines.size(), static_cast<long long>(total),
               static_cast<double>(total) / static_cast<double>(all.size()), worst, Seconds(start));
  // A worse tree never replaces the one merged into; written elsewhere it
  // may still be worth polishing (a subtree a guess or two above the one
  // shipped can polish below it).
  std::error_code ec;
  const bool over_merge = out.empty() || std::filesystem::weakly_canonical(out, ec) ==
                                             std::filesystem::weakly_canonical(merge, ec);
  if ((total > old_total || worst > old_worst) && over_merge) {
    std::fprintf(stderr, "worse than %s: nothing written\n", merge.c_str());
    return 1;
  }
  if (out.empty()) return 0;
  return WriteTree(out, leading_zero, all.size(), total, worst, comments, lines) ? 0 : 1;
}

}  // namespace
}  // namespace foundry::tools::bulls_cows_optimal

int main(int argc, char** argv) { return foundry::tools::bulls_cows_optimal::Main(argc, argv); }
