// Where each of the grader's techniques has looked and found nothing since
// the last change there (grading_logic.h): units for the techniques that
// look at one unit at a time, digits for those that follow one digit, the
// whole grid for XY-wing. A change of a cell's candidates makes its units
// and the digits it lost fruitful again, so a technique looks again only
// where something changed: the same steps, in the same order, with fewer
// scans (a grade tries many techniques that find nothing).
//
// Thread safety: a value, used by one thread.
#pragma once

#include <array>
#include <cstdint>

namespace foundry::puzzles::sudoku::grading {

// The scans that go unit by unit, and those that go digit by digit.
enum class UnitScan {
  kHiddenSingles,
  kNakedPairs,
  kNakedTriples,
  kNakedQuads,
  kHiddenPairs,
  kHiddenTriples,
  kHiddenQuads,
  kCount
};
enum class DigitScan { kLockedCandidates, kXWings, kSwordfish, kCount };

class FruitlessScans {
 public:
  // Unit u (bit u) holds nothing for scan s; units[s] is the set of them.
  uint64_t& units(UnitScan s) { return units_[static_cast<int>(s)]; }
  // Digit d (bit d) holds nothing for scan s.
  uint32_t& digits(DigitScan s) { return digits_[static_cast<int>(s)]; }
  // XY-wing found nothing in the whole grid.
  bool& grid() { return grid_; }

  // Cells of `units` lost the candidates `digits`: every scan must look
  // there again.
  void Touch(uint64_t units, uint32_t digits) {
    for (uint64_t& m : units_) m &= ~units;
    for (uint32_t& m : digits_) m &= ~digits;
    grid_ = false;
  }

 private:
  std::array<uint64_t, static_cast<int>(UnitScan::kCount)> units_{};
  std::array<uint32_t, static_cast<int>(DigitScan::kCount)> digits_{};
  bool grid_ = false;
};

}  // namespace foundry::puzzles::sudoku::grading
