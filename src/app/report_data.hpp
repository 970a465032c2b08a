#pragma once
// What `wirebench report` puts in its page: the results files' points, their summaries, latency
// spectra and timelines, the knee searches, and, given two files, the before/after comparison of
// the points they share, as one JSON document that the page's script draws (report_page.hpp).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "wirebench/load/results_merge.hpp"

namespace wirebench::app {

// The percentile spectrum HdrHistogram draws: the latency at percentiles 50, 75, 87.5, ... (five
// steps each halving of what is above, up to the last value the histogram holds) and 100, as
// [percentile, microseconds] pairs; empty for an empty histogram.
nlohmann::json percentile_spectrum(const latency_histogram& h);

// A Google Benchmark JSON file (--benchmark_out), drawn beside the results.
struct benchmark_input {
  std::string file;
  nlohmann::json doc;
};

// The page's data. Two results inputs are also compared, the first as before, the second as
// after. Google Benchmark files keep their context and the rows that stand for a case: the
// median of its repetitions (or its one run), with its counters.
nlohmann::json report_data(const std::vector<results_input>& inputs,
                           const std::vector<benchmark_input>& benchmarks = {});

}  // namespace wirebench::app
