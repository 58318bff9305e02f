#include "puzzles/params.h"

#include <charconv>

#include <fmt/format.h>

#include "common/quote.h"

namespace foundry::puzzles {

ParamSpec ParamSpec::Int(std::string key, int64_t def, int64_t min, int64_t max, std::string help) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = Type::kInt;
  s.int_default = def;
  s.min = min;
  s.max = max;
  s.help = std::move(help);
  return s;
}

ParamSpec ParamSpec::Bool(std::string key, bool def, std::string help) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = Type::kBool;
  s.bool_default = def;
  s.help = std::move(help);
  return s;
}

ParamSpec ParamSpec::Choice(std::string key, std::vector<std::string> choices, std::string help) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = Type::kChoice;
  s.choices = std::move(choices);
  s.help = std::move(help);
  return s;
}

std::string ParamSpec::AllowedText() const {
  switch (type) {
    case Type::kInt:
      return fmt::format("{}..{}", min, max);
    case Type::kBool:
      return "true|false";
    case Type::kChoice:
      return fmt::format("{}", fmt::join(choices, "|"));
  }
  return {};
}

std::string ParamSpec::DefaultText() const {
  switch (type) {
    case Type::kInt:
      return std::to_string(int_default);
    case Type::kBool:
      return bool_default ? "true" : "false";
    case Type::kChoice:
      return choices.empty() ? "" : choices.front();
  }
  return {};
}

namespace {

nlohmann::json DefaultValue(const ParamSpec& spec) {
  switch (spec.type) {
    case ParamSpec::Type::kInt:
      return spec.int_default;
    case ParamSpec::Type::kBool:
      return spec.bool_default;
    case ParamSpec::Type::kChoice:
      return spec.choices.front();
  }
  return nullptr;
}

// `also`: other spellings the input's form accepts, said after the allowed values.
Status BadValue(const ParamSpec& spec, std::string_view got, std::string_view also = "") {
  return Status::InvalidArgument(fmt::format("parameter '{}' must be {}{}, got '{}'", spec.key,
                                             spec.AllowedText(), also, QuoteInput(got)));
}

Status UnknownKey(const std::vector<ParamSpec>& specs, std::string_view key) {
  std::vector<std::string> keys;
  for (const auto& s : specs) keys.push_back(s.key);
  if (keys.empty()) {
    return Status::InvalidArgument(
        fmt::format("unknown parameter '{}': this family takes no parameters", QuoteInput(key)));
  }
  return Status::InvalidArgument(
      fmt::format("unknown parameter '{}' (known: {})", QuoteInput(key), fmt::join(keys, ", ")));
}

const ParamSpec* Find(const std::vector<ParamSpec>& specs, std::string_view key) {
  for (const auto& s : specs) {
    if (s.key == key) return &s;
  }
  return nullptr;
}

// Parses one textual value into JSON of the spec's type.
Result<nlohmann::json> ParseValue(const ParamSpec& spec, const std::string& text) {
  switch (spec.type) {
    case ParamSpec::Type::kInt: {
      int64_t v = 0;
      auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || ptr != text.data() + text.size() || v < spec.min || v > spec.max) {
        return BadValue(spec, text);
      }
      return nlohmann::json(v);
    }
    case ParamSpec::Type::kBool:
      if (text == "true" || text == "1" || text == "yes") return nlohmann::json(true);
      if (text == "false" || text == "0" || text == "no") return nlohmann::json(false);
      return BadValue(spec, text, " (or yes|no, 1|0)");
    case ParamSpec::Type::kChoice:
      for (const auto& c : spec.choices) {
        if (c == text) return nlohmann::json(c);
      }
      return BadValue(spec, text);
  }
  return Status::Internal("unreachable");
}

}  // namespace

Result<Params> ParseParams(const std::vector<ParamSpec>& specs,
                           const std::map<std::string, std::string>& raw) {
  Params p;
  for (const auto& spec : specs) p.json_[spec.key] = DefaultValue(spec);
  for (const auto& [key, text] : raw) {
    const ParamSpec* spec = Find(specs, key);
    if (spec == nullptr) return UnknownKey(specs, key);
    auto v = ParseValue(*spec, text);
    if (!v.ok()) return v.status();
    p.json_[key] = std::move(*v);
  }
  return p;
}

Result<Params> ParamsFromJson(const std::vector<ParamSpec>& specs, const nlohmann::json& object) {
  if (!object.is_object()) return Status::InvalidArgument("parameters must be a JSON object");
  Params p;
  for (const auto& spec : specs) p.json_[spec.key] = DefaultValue(spec);
  for (const auto& [key, value] : object.items()) {
    const ParamSpec* spec = Find(specs, key);
    if (spec == nullptr) return UnknownKey(specs, key);
    bool good = false;
    switch (spec->type) {
      case ParamSpec::Type::kInt:
        good = value.is_number_integer() && value.get<int64_t>() >= spec->min &&
               value.get<int64_t>() <= spec->max;
        break;
      case ParamSpec::Type::kBool:
        good = value.is_boolean();
        break;
      case ParamSpec::Type::kChoice:
        good = value.is_string() && Find(specs, key) != nullptr &&
               std::find(spec->choices.begin(), spec->choices.end(), value.get<std::string>()) !=
                   spec->choices.end();
        break;
    }
    if (!good) return BadValue(*spec, value.dump());
    p.json_[key] = value;
  }
  return p;
}

Status CheckNotAbove(const Params& params, const std::string& low, const std::string& high) {
  const int64_t lo = params.Int(low), hi = params.Int(high);
  if (lo <= hi) return Status::Ok();
  return Status::InvalidArgument(
      fmt::format("parameter '{}' ({}) must not exceed '{}' ({})", low, lo, high, hi));
}

}  // namespace foundry::puzzles
