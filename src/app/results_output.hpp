#pragma once
// Where `run` and `merge` write their results files (JSON, and CSV beside it), and `report` its page.
#include <optional>
#include <ostream>
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
// complete. "-" is stdout; a symlink is followed (its target replaced, the link kept); a path that
// is a device or a FIFO (/dev/stdout) is written through. False when it could not.
bool write_file(const std::string& path, const std::string& text);

// Creates the file's folder and checks that files can be written there, before a long run
// rather than after it (a device or FIFO: that it can be written; "-": nothing to check); the
// file itself is left as it is. Returns a message when it cannot.
std::string prepare_output(const std::string& path);

// "results.csv" for "results.json": where the CSV goes when only the JSON's path is given; empty
// (no CSV) when the JSON goes to stdout ("-") or to a device or FIFO.
std::string csv_path_for(const std::string& json_path);

// The JSON's and the CSV's paths of `run` and `merge` settled before anything runs: the CSV beside
// the JSON unless given (csv_path_for), at most one of them on stdout ("-"), each prepared
// (prepare_output). A message when they cannot be.
std::string prepare_results_outputs(const std::string& json_path, std::string& csv_path);

// The stream a command's table goes to: stderr when the results go to stdout, so a pipe gets
// the JSON (or CSV) alone.
std::ostream& table_stream(const std::string& json_path, const std::string& csv_path);

// Writes the JSON and the CSV where asked (an empty path: not written) and says on stderr where
// they are. Each is written whole or not at all (beside its path, then renamed over it); a run
// with no point writes nothing, and says the files were left as they were. False (with a
// message) when one could not be written.
bool write_results(const run_record& run, const std::string& json_path,
                   const std::string& csv_path);

}  // namespace wirebench::app
