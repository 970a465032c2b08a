#pragma once
// Checks of numeric options in a person's words. CLI11's own print their bounds with six decimals,
// and a positive number's as "0.000000 to 1797693..." (309 digits): these say "must be above 0"
// and "must be from 0.01 to 86400", the bounds as given (printf's %g).
#include <string>

#include <CLI/CLI.hpp>

namespace wirebench::app {

CLI::Validator above_zero();
CLI::Validator from_to(double lowest, double highest);

}  // namespace wirebench::app
