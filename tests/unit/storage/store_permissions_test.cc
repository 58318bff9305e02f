// A store the coordinator creates is its owner's alone: it holds every
// solution and every play.
#include <sys/stat.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "storage/store.h"
#include "store_test_util.h"

namespace foundry::storage {
namespace {

TEST(StorePermissionsTest, ACreatedStoreDirectoryIsOwnerOnly) {
  testing::TempDir dir;
  const std::string path = dir.Sub("nested/store");
  {
    auto store = Store::Open(path, {});
    ASSERT_TRUE(store.ok()) << store.status().ToString();
  }
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u) << std::oct << (st.st_mode & 0777);
  // Reopened, it stays so and opens.
  auto again = Store::Open(path, {});
  ASSERT_TRUE(again.ok()) << again.status().ToString();
}

}  // namespace
}  // namespace foundry::storage
