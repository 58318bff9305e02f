// Integer command-line options read as the decimal numbers users write.
//
// CLI11 converts integers with strtoull/strtoll in base 0, so "--seed 010"
// reads as octal 8 (a zero-padded seed from a script names another
// campaign), and a number past 64 bits as the largest value ("--seed
// 99999999999999999999" and "--seed 18446744073709551616" are one seed).
#pragma once

namespace CLI {
class App;
}  // namespace CLI

namespace foundry {

// Gives every integer option of `app` and of its subcommands (added so far)
// a transform that runs before the option's other checks: a decimal number
// loses its leading zeros ("010" is ten); one that does not fit in 64 bits,
// a negative one for an unsigned option (which CLI11 reads as 2^64 - n), and
// an empty value (which CLI11 takes for the default) are refused by name. Other forms ("0x10") go to CLI11 unchanged.
// Call after the options are added, before parsing.
void ReadIntegersAsDecimal(CLI::App& app);

}  // namespace foundry
