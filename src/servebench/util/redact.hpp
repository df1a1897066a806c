#pragma once
// Secrets never stored or shown: the one function every writer and printer of user- or
// server-supplied text runs it through (launch commands, environments, logs, facts, status,
// reports, console). What counts as a secret:
//   - the value of `--api-key` and `--admin-api-key`, as `--flag VALUE` or `--flag=VALUE`;
//   - the value of an assignment `NAME=VALUE` or `NAME: VALUE` whose NAME is secret-named
//     (is_secret_name: *_TOKEN, *_KEY, *SECRET*, *PASSWORD*, case-insensitive) — environment
//     words of a launch command, Python reprs of server arguments (`api_key='…'`), JSON or YAML;
//   - the credentials of an `Authorization` header (`Authorization: Bearer …`; the scheme stays).
// Each value becomes `<redacted>`. Values that are references rather than secrets stay: `$VAR`,
// `${VAR}`, placeholders in angle brackets (`<your-hf-token>`, so also `<redacted>`), `None`,
// `null` and the empty value. Redacting twice changes nothing.
#include <cstdio>
#include <string>
#include <string_view>

#include <boost/json/fwd.hpp>

namespace servebench::util {

inline constexpr std::string_view k_redacted = "<redacted>";

// True for names that hold secrets: ending in _TOKEN or _KEY, or containing SECRET or PASSWORD
// (case-insensitive; `api_key`, `HF_TOKEN`, `client_secret`), and `authorization`.
bool is_secret_name(std::string_view name);

// `text` with every secret value replaced by <redacted> (see above); everything else unchanged.
std::string redact(std::string_view text);

// In place: every string under a secret-named key becomes <redacted>, the string after an
// "--api-key"/"--admin-api-key" element of an array too, and every other string runs through
// redact().
void redact_json(boost::json::value& v);

}  // namespace servebench::util

namespace servebench::util {

// Replaces the process's stdout and stderr (the C streams every printer here uses) with streams
// that pass each write through redact() to the same descriptors. stdout becomes line-buffered,
// so a write holds whole lines; stderr stays unbuffered (one write per print). Once, at startup.
void redact_standard_streams();
// The descriptor under `f`: fileno(f), or for the redacting stdout and stderr 1 and 2 (for isatty
// and the terminal width).
int stream_descriptor(std::FILE* f);

}  // namespace servebench::util
