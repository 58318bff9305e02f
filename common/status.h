// Status and Result<T>: the one error type of Puzzle Foundry.
//
// Nothing throws across a module boundary: a function that can fail returns a
// Status (no value) or a Result<T> (a value or a Status). The kinds map one to
// one onto gRPC status codes so that a server hands a caller the same kind the
// core produced.
//
// Thread safety: values; safe to copy between threads.
#pragma once

#include <cassert>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace foundry {

class Status {
 public:
  // Values are stable: they are mapped to gRPC codes and printed in logs.
  enum class Code {
    kOk = 0,
    kInvalidArgument = 3,
    kNotFound = 5,
    kAlreadyExists = 6,
    kPermissionDenied = 7,
    kResourceExhausted = 8,
    kFailedPrecondition = 9,
    kAborted = 10,
    kOutOfRange = 11,
    kInternal = 13,
    kUnavailable = 14,
    kDataLoss = 15,
  };

  // An OK status.
  Status() = default;

  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string msg) {
    return {Code::kInvalidArgument, std::move(msg)};
  }
  static Status NotFound(std::string msg) { return {Code::kNotFound, std::move(msg)}; }
  static Status AlreadyExists(std::string msg) { return {Code::kAlreadyExists, std::move(msg)}; }
  static Status PermissionDenied(std::string msg) {
    return {Code::kPermissionDenied, std::move(msg)};
  }
  static Status ResourceExhausted(std::string msg) {
    return {Code::kResourceExhausted, std::move(msg)};
  }
  static Status FailedPrecondition(std::string msg) {
    return {Code::kFailedPrecondition, std::move(msg)};
  }
  static Status Aborted(std::string msg) { return {Code::kAborted, std::move(msg)}; }
  static Status OutOfRange(std::string msg) { return {Code::kOutOfRange, std::move(msg)}; }
  static Status Internal(std::string msg) { return {Code::kInternal, std::move(msg)}; }
  static Status Unavailable(std::string msg) { return {Code::kUnavailable, std::move(msg)}; }
  // Stored data is damaged or of a format this build does not read.
  static Status DataLoss(std::string msg) { return {Code::kDataLoss, std::move(msg)}; }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  // A sentence for a person; empty when ok().
  const std::string& message() const { return message_; }

  // "invalid argument: <message>" or "ok".
  std::string ToString() const;

  // A copy with `context` prefixed to the message ("context: message").
  Status WithContext(std::string_view context) const {
    if (ok()) return *this;
    return Status(code_, std::string(context) + ": " + message_);
  }

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}

  Code code_ = Code::kOk;
  std::string message_;
};

inline std::string Status::ToString() const {
  const char* kind = "unknown";
  switch (code_) {
    case Code::kOk:
      return "ok";
    case Code::kInvalidArgument:
      kind = "invalid argument";
      break;
    case Code::kNotFound:
      kind = "not found";
      break;
    case Code::kAlreadyExists:
      kind = "already exists";
      break;
    case Code::kPermissionDenied:
      kind = "permission denied";
      break;
    case Code::kResourceExhausted:
      kind = "resource exhausted";
      break;
    case Code::kFailedPrecondition:
      kind = "failed precondition";
      break;
    case Code::kAborted:
      kind = "aborted";
      break;
    case Code::kOutOfRange:
      kind = "out of range";
      break;
    case Code::kInternal:
      kind = "internal";
      break;
    case Code::kUnavailable:
      kind = "unavailable";
      break;
    case Code::kDataLoss:
      kind = "data loss";
      break;
  }
  return std::string(kind) + ": " + message_;
}

// A value of type T or a non-OK Status.
template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  // REQUIRES: !status.ok()
  Result(Status status) : v_(std::move(status)) { assert(!std::get<Status>(v_).ok()); }  // NOLINT

  bool ok() const { return std::holds_alternative<T>(v_); }
  // OK when a value is held.
  Status status() const { return ok() ? Status::Ok() : std::get<Status>(v_); }

  // REQUIRES: ok()
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace foundry

// Returns early from the enclosing function when `expr` (a Status) is not OK.
#define FOUNDRY_RETURN_IF_ERROR(expr)                  \
  do {                                                 \
    ::foundry::Status foundry_status_ = (expr);        \
    if (!foundry_status_.ok()) return foundry_status_; \
  } while (0)
