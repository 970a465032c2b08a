#pragma once
// Where `run` and `merge` write their results files (JSON, and CSV beside it), and `report` its page.
#include <optional>
#include <string>
#include <vector>

#include "wirebench/load/results_file.hpp"
#include "wirebench/load/results_merge.hpp"

namespace wirebench::app {

// Reads results files (`merge`'s and `report`'s inputs). On the first that is not one, says on
// stderr which and why ("wirebench: a.json: not JSON") and returns nullopt.
std::optional<std::vector<results_input>> read_results_files(const std::vector<std::string>& files);

// Writes `text` beside `path` and renames it over it once whole: a run that fails or is cut
// short never leaves a file truncated, and a file that was there stays until its replacement is
// complete. False when it could not.
bool write_file(const std::string& path, const std::string& text);

// Creates the file's folder and checks that files can be written there, before a long run
// rather than after it; the file itself is left as it is. Returns a message when it cannot.
std::string prepare_output(const std::string& path);

// "results.csv" for "results.json": where the CSV goes when only the JSON's path is given.
std::string csv_path_for(const std::string& json_path);

// Writes the JSON and the CSV where asked (an empty path: not written) and says on stderr where
// they are. Each is written whole or not at all (beside its path, then renamed over it); a run
// with no point writes nothing, and says the files were left as they were. False (with a
// message) when one could not be written.
bool write_results(const run_record& run, const std::string& json_path,
                   const std::string& csv_path);

}  // namespace wirebench::app
