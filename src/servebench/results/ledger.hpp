#pragma once
// ledger.jsonl: one JSON object per line, appended and fsynced per record. Readers tolerate a torn
// last line (a crash mid-append) and unreadable lines (reported, never fatal), and resolve each
// point to its last record. Lines with another schema (e.g. the campaign's corpus cursor) are kept
// as raw objects for the module that wrote them.
#include <filesystem>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "servebench/results/point.hpp"
#include "servebench/util/result.hpp"

namespace servebench::results {

struct LedgerIssue {
  std::size_t line = 0;  // 1-based
  std::string message;   // "line 12: torn last line (likely a crash mid-write), ignored"
};

struct Ledger {
  std::vector<PointRecord> records;  // every readable point record, in file order
  std::vector<boost::json::object> others;  // records of other schemas, in file order
  std::vector<LedgerIssue> issues;          // unreadable lines; each was skipped
  // The last record per point, in the order each point first appeared.
  std::vector<PointRecord> latest() const;
};

// Reads a ledger; a missing file is an empty ledger. Fails only when the file exists but
// cannot be read.
util::Result<Ledger> read_ledger(const std::filesystem::path& path);
// The same, streamed line by line (the file is never held whole) and keeping only the last record
// of each point, in the order each point first appeared: `records` is what latest() would return,
// without the copies. For readers of large ledgers (the report).
util::Result<Ledger> read_latest(const std::filesystem::path& path);
// Parses ledger text (the body of read_ledger, exposed for tests).
Ledger parse_ledger(std::string_view text);

// Appends one record durably (fsync). If the file ends without a newline (a torn line), a
// newline is written first so the new record starts on its own line.
util::Result<void> append_point(const std::filesystem::path& path, const PointRecord& r);
util::Result<void> append_object(const std::filesystem::path& path, const boost::json::object& o);

}  // namespace servebench::results
