#include "common/utf8_fields.h"

#include <vector>

#include <fmt/format.h>

#include "common/utf8.h"

namespace foundry {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

std::string Join(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

std::string FirstNonUtf8In(const Message& message, const std::string& prefix) {
  const Reflection* reflection = message.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);  // only the fields that are set
  for (const FieldDescriptor* field : fields) {
    const std::string path = Join(prefix, field->name());
    if (field->type() == FieldDescriptor::TYPE_STRING) {
      if (field->is_repeated()) {
        for (int i = 0; i < reflection->FieldSize(message, field); ++i) {
          if (!IsValidUtf8(reflection->GetRepeatedString(message, field, i))) return path;
        }
      } else if (!IsValidUtf8(reflection->GetString(message, field))) {
        return path;
      }
    } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      if (field->is_repeated()) {
        for (int i = 0; i < reflection->FieldSize(message, field); ++i) {
          auto found = FirstNonUtf8In(reflection->GetRepeatedMessage(message, field, i), path);
          if (!found.empty()) return found;
        }
      } else {
        auto found = FirstNonUtf8In(reflection->GetMessage(message, field), path);
        if (!found.empty()) return found;
      }
    }
  }
  return "";
}

}  // namespace

std::string FirstNonUtf8Field(const Message& message) { return FirstNonUtf8In(message, ""); }

Status CheckUtf8Fields(const Message& message) {
  const std::string field = FirstNonUtf8Field(message);
  if (field.empty()) return Status::Ok();
  return Status::InvalidArgument(
      fmt::format("{} is not valid UTF-8 text (gRPC carries text as UTF-8)", field));
}

}  // namespace foundry
