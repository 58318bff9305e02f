#include "console/session_table.h"
#include <thread>

#include <gtest/gtest.h>

namespace foundry::console {
namespace {

TEST(SessionTableTest, SessionsHaveDistinctUnguessableIdsAndCsrfTokens) {
  SessionTable table;
  const Session a = table.Create(Role::kAdmin, "tok", false);
  const Session b = table.Create(Role::kReader, "tok", false);
  EXPECT_EQ(a.id.size(), 64u);
  EXPECT_EQ(a.csrf.size(), 64u);
  EXPECT_NE(a.id, b.id);
  EXPECT_NE(a.csrf, b.csrf);
  EXPECT_NE(a.id, a.csrf);
  auto found = table.Find(a.id);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->role, Role::kAdmin);
  EXPECT_EQ(found->csrf, a.csrf);
  EXPECT_FALSE(table.Find(a.csrf).has_value());
  EXPECT_FALSE(table.Find("").has_value());
}

TEST(SessionTableTest, RemovedAndIdleSessionsAreGone) {
  SessionTable table(std::chrono::seconds(0));
  const Session a = table.Create(Role::kReader, "", false);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_FALSE(table.Find(a.id).has_value());  // idle longer than 0 s

  SessionTable kept;
  const Session b = kept.Create(Role::kReader, "", true);
  kept.Remove(b.id);
  EXPECT_FALSE(kept.Find(b.id).has_value());
}

TEST(SessionTableTest, AFloodOfVisitorsEvictsTheLeastRecentlyUsed) {
  SessionTable table(std::chrono::hours(1), 3);
  const Session first = table.Create(Role::kReader, "", false);
  const Session second = table.Create(Role::kReader, "", false);
  const Session third = table.Create(Role::kReader, "", false);
  ASSERT_TRUE(table.Find(first.id).has_value());  // first is now the most recent
  table.Create(Role::kReader, "", false);
  EXPECT_TRUE(table.Find(first.id).has_value());
  EXPECT_FALSE(table.Find(second.id).has_value());
  EXPECT_TRUE(table.Find(third.id).has_value());
}

TEST(SessionTableTest, AnonymousVisitorsCannotLogAnybodyOut) {
  SessionTable table(std::chrono::hours(1), 1000);
  const Session reader = table.Create(Role::kReader, "reader-token", /*logged_in=*/true);
  const Session early = table.Create(Role::kAdmin, "", /*logged_in=*/false);
  for (int i = 0; i < 100'000; ++i) table.Create(Role::kAdmin, "", /*logged_in=*/false);
  auto found = table.Find(reader.id);
  ASSERT_TRUE(found.has_value()) << "100,000 anonymous sessions evicted a logged-in one";
  EXPECT_EQ(found->token, "reader-token");
  EXPECT_FALSE(table.Find(early.id).has_value()) << "anonymous sessions are bounded";
}

TEST(SessionTableTest, LoggedInSessionsAreBoundedAmongThemselves) {
  SessionTable table(std::chrono::hours(1), 2);
  const Session a = table.Create(Role::kReader, "", true);
  const Session b = table.Create(Role::kReader, "", true);
  const Session anon = table.Create(Role::kAdmin, "", false);
  table.Create(Role::kReader, "", true);
  EXPECT_FALSE(table.Find(a.id).has_value());
  EXPECT_TRUE(table.Find(b.id).has_value());
  EXPECT_TRUE(table.Find(anon.id).has_value()) << "a login evicted an anonymous session";
}

TEST(SessionTableTest, SameSecretComparesWholeStrings) {
  EXPECT_TRUE(SessionTable::SameSecret("abc", "abc"));
  EXPECT_FALSE(SessionTable::SameSecret("abc", "abd"));
  EXPECT_FALSE(SessionTable::SameSecret("abc", "ab"));
  EXPECT_FALSE(SessionTable::SameSecret("", "a"));
}

}  // namespace
}  // namespace foundry::console
