// WriteStop: whether the store's disk filled up and RocksDB stopped taking
// writes, and why.
//
// The store keeps StoreOptions::min_free_bytes free so that RocksDB should
// never meet a full disk; when something else fills it anyway, RocksDB stops
// the database (every write fails) and recovers by itself once the disk has
// room for its largest memtable again (it looks every few seconds). This
// listener records the stop and its end, so that Store::WriteState can hold
// commits meanwhile instead of failing each one. (A manual DB::Resume on a
// disk still full was seen to leave the write-ahead log in a state that
// aborts the process; we leave recovery to RocksDB.) Private to storage/.
#pragma once

#include <atomic>
#include <mutex>
#include <string>

#include <rocksdb/listener.h>

namespace foundry::storage {

class WriteStop final : public rocksdb::EventListener {
 public:
  // RocksDB calls these with its own mutex held: they only record.
  void OnBackgroundError(rocksdb::BackgroundErrorReason reason, rocksdb::Status* error) override;
  void OnErrorRecoveryCompleted(rocksdb::Status old_error) override;
  void OnErrorRecoveryEnd(const rocksdb::BackgroundErrorRecoveryInfo& info) override;

  // True from an out-of-space error until RocksDB reports it recovered.
  bool stopped() const { return stopped_.load(std::memory_order_acquire); }
  // RocksDB's words for the error that stopped writes ("" when none did).
  std::string reason() const;

 private:
  void Clear();

  std::atomic<bool> stopped_{false};
  mutable std::mutex mu_;
  std::string reason_;  // guarded by mu_
};

}  // namespace foundry::storage
