#pragma once
// Where `run` and `merge` write their results files: JSON, and CSV beside it.
#include <string>

#include "wirebench/load/results_file.hpp"

namespace wirebench::app {

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
