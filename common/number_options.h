// Number options on the command line read as users write them.
//
// CLI11 converts integers with strtoull/strtoll in base 0, so "--seed 010"
// reads as octal 8 (a zero-padded seed from a script names another
// campaign), a number past 64 bits as the largest value ("--seed
// 99999999999999999999" and "--seed 18446744073709551616" are one seed),
// and an empty value leaves the default. Floating options take "nan",
// which passes every CLI::Range check (it compares false both ways), so
// "--lease-seconds nan" started a coordinator with a lease time of NaN.
#pragma once

namespace CLI {
class App;
}  // namespace CLI

namespace foundry {

// Gives every number option of `app` and of its subcommands (added so far)
// a transform that runs before the option's other checks. An integer in
// decimal loses its leading zeros ("010" is ten); one that does not fit in
// 64 bits, a negative one for an unsigned option (which CLI11 reads as
// 2^64 - n) and an empty value are refused by name; other forms ("0x10")
// go to CLI11 unchanged. A floating option refuses NaN and the infinities.
// Call after the options are added, before parsing.
void StrictNumberOptions(CLI::App& app);

}  // namespace foundry
