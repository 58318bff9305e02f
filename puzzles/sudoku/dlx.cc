#include "puzzles/sudoku/dlx.h"

#include <vector>

namespace foundry::puzzles::sudoku {
namespace {

class Dlx {
 public:
  explicit Dlx(int columns) {
    const int h = columns + 1;
    L.resize(h);
    R.resize(h);
    U.resize(h);
    D.resize(h);
    C.resize(h);
    S.assign(h, 0);
    for (int i = 0; i < h; ++i) {
      L[i] = (i + h - 1) % h;
      R[i] = (i + 1) % h;
      U[i] = D[i] = C[i] = i;
    }
  }

  // Adds a row covering `cols` (1-based column ids), tagged `tag`.
  void AddRow(const int* cols, int k, int tag) {
    const int first = static_cast<int>(L.size());
    for (int i = 0; i < k; ++i) {
      const int col = cols[i], x = first + i;
      L.push_back(i == 0 ? first + k - 1 : x - 1);
      R.push_back(i == k - 1 ? first : x + 1);
      U.push_back(U[col]);
      D.push_back(col);
      C.push_back(col);
      D[U[col]] = x;
      U[col] = x;
      ++S[col];
      tag_.resize(x + 1, -1);
      tag_[x] = tag;
    }
  }

  int Count(int limit, std::vector<int>* first_tags) {
    limit_ = limit;
    count_ = 0;
    first_ = first_tags;
    path_.clear();
    Search();
    return count_;
  }

 private:
  void Cover(int c) {
    L[R[c]] = L[c];
    R[L[c]] = R[c];
    for (int i = D[c]; i != c; i = D[i]) {
      for (int j = R[i]; j != i; j = R[j]) {
        U[D[j]] = U[j];
        D[U[j]] = D[j];
        --S[C[j]];
      }
    }
  }

  void Uncover(int c) {
    for (int i = U[c]; i != c; i = U[i]) {
      for (int j = L[i]; j != i; j = L[j]) {
        ++S[C[j]];
        U[D[j]] = j;
        D[U[j]] = j;
      }
    }
    L[R[c]] = c;
    R[L[c]] = c;
  }

  void Search() {
    if (R[0] == 0) {
      if (count_ == 0 && first_) {
        first_->clear();
        for (int x : path_) first_->push_back(tag_[x]);
      }
      ++count_;
      return;
    }
    int c = R[0];
    for (int j = R[c]; j != 0 && S[c] > 1; j = R[j]) {
      if (S[j] < S[c]) c = j;  // a column of one (or none) cannot be beaten
    }
    if (S[c] == 0) return;
    Cover(c);
    for (int r = D[c]; r != c && count_ < limit_; r = D[r]) {
      path_.push_back(r);
      for (int j = R[r]; j != r; j = R[j]) Cover(C[j]);
      Search();
      for (int j = L[r]; j != r; j = L[j]) Uncover(C[j]);
      path_.pop_back();
    }
    Uncover(c);
  }

  std::vector<int> L, R, U, D, C, S, tag_;
  std::vector<int> path_;
  std::vector<int>* first_ = nullptr;
  int limit_ = 1, count_ = 0;
};

}  // namespace

int DlxCountSolutions(const Shape& shape, const Grid& givens, int limit, Grid* first) {
  const int n = shape.n(), nn = shape.cells();
  // What the givens rule out: a digit already in the row, column or box.
  std::vector<uint32_t> row(n, 0), col(n, 0), box(n, 0);
  for (int c = 0; c < nn; ++c) {
    if (!givens[c]) continue;
    const uint32_t bit = 1u << (givens[c] - 1);
    const int r = c / n, k = c % n, b = shape.BoxOf(r, k);
    if ((row[r] & bit) || (col[k] & bit) || (box[b] & bit)) return 0;  // givens clash
    row[r] |= bit;
    col[k] |= bit;
    box[b] |= bit;
  }
  Dlx dlx(4 * nn);
  for (int c = 0; c < nn; ++c) {
    const int r = c / n, k = c % n, b = shape.BoxOf(r, k);
    for (int d = 0; d < n; ++d) {
      if (givens[c] ? givens[c] != d + 1 : ((row[r] | col[k] | box[b]) >> d) & 1u) continue;
      const int cols[4] = {1 + c, 1 + nn + r * n + d, 1 + 2 * nn + k * n + d,
                           1 + 3 * nn + b * n + d};
      dlx.AddRow(cols, 4, c * n + d);
    }
  }
  std::vector<int> tags;
  const int count = dlx.Count(limit, first ? &tags : nullptr);
  if (first && count > 0) {
    first->assign(nn, 0);
    for (int t : tags) (*first)[t / n] = static_cast<uint8_t>(t % n + 1);
  }
  return count;
}

}  // namespace foundry::puzzles::sudoku
