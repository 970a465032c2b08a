#pragma once
// Reads a results file back (results_json()'s format 2), so that results can be merged
// (results_merge.hpp), tabled and plotted again. Start-up code: a file that is not such a
// results file throws, with a one-line reason naming where in the file it went wrong.
#include <string_view>

#include "wirebench/load/results_file.hpp"

namespace wirebench {

/// The run a results file holds. Throws std::runtime_error: not JSON, another format (format 1
/// carried no histograms: it cannot be merged), or a field missing or of the wrong type.
run_record read_results_json(std::string_view text);

}  // namespace wirebench
