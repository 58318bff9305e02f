// One template instance per supported box shape: the solver's and the
// grader's inner loops get constant bounds (9x9 loops unroll), and the
// choice among them is made once per call, here.
//
// Thread safety: a pure function.
#pragma once

#include "puzzles/sudoku/shape.h"

namespace foundry::puzzles::sudoku {

// Calls f.template operator()<Impl<R, C>>() for the box rows R and box
// columns C of `shape`, one of SupportedShapes() (any other gets 3x3).
template <template <int, int> class Impl, typename F>
decltype(auto) DispatchShape(const Shape& shape, F&& f) {
  switch (shape.box_rows * 10 + shape.box_cols) {
    case 22:
      return f.template operator()<Impl<2, 2>>();
    case 23:
      return f.template operator()<Impl<2, 3>>();
    case 34:
      return f.template operator()<Impl<3, 4>>();
    case 44:
      return f.template operator()<Impl<4, 4>>();
    default:
      return f.template operator()<Impl<3, 3>>();
  }
}

}  // namespace foundry::puzzles::sudoku
