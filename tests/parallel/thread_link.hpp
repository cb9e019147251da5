// Ranks as threads of one process, for the tests of the distributed backend without mpirun:
// ThreadGroup is what the ranks share, ThreadLink one rank's RankLink over it. The collectives
// meet at a barrier (every rank calls them in the same order, as over MPI); transfers go through
// per (from, to, tag) queues, in order, as MPI's non-overtaking messages.
#pragma once
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

#include "parallel/rank_link.hpp"

namespace clfdtd::test {

class ThreadGroup {
public:
  explicit ThreadGroup(int size) : size_(size), doubles_(size), floats_(size), texts_(size), oks_(size) {}
  int size() const { return size_; }

  // Runs body(rank) on `size` threads and joins them; the first exception is rethrown.
  void run(const std::function<void(int)>& body) {
    std::vector<std::thread> threads;
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(size_));
    for (int r = 0; r < size_; ++r)
      threads.emplace_back([&, r] {
        try {
          body(r);
        } catch (...) {
          errors[static_cast<std::size_t>(r)] = std::current_exception();
        }
      });
    for (auto& t : threads) t.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
  }

private:
  friend class ThreadLink;
  void barrier() {
    std::unique_lock<std::mutex> lock(mu_);
    const long gen = generation_;
    if (++arrived_ == size_) {
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
    } else {
      cv_.wait(lock, [&] { return generation_ != gen; });
    }
  }
  int size_;
  std::mutex mu_;
  std::condition_variable cv_;
  int arrived_ = 0;
  long generation_ = 0;
  std::vector<std::vector<double>> doubles_;
  std::vector<std::vector<float>> floats_;
  std::vector<std::string> texts_;
  // One byte per rank, not vector<bool>: ranks write their own entry at the same time, and
  // vector<bool>'s bits of one word would race (a rank's `true` lost, so it looked failed with an
  // empty message: "rank 2: ").
  std::vector<char> oks_;
  std::map<std::tuple<int, int, int>, std::deque<std::vector<float>>> mail_;
};

class ThreadLink final : public parallel::RankLink {
public:
  ThreadLink(ThreadGroup& g, int rank) : g_(g), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return g_.size_; }

  int first_failed(bool ok, const std::string& message, std::string& failed_message) override {
    g_.oks_[static_cast<std::size_t>(rank_)] = ok ? 1 : 0;
    g_.texts_[static_cast<std::size_t>(rank_)] = message;
    g_.barrier();
    int first = -1;
    for (int r = 0; r < g_.size_ && first < 0; ++r)
      if (!g_.oks_[static_cast<std::size_t>(r)]) first = r;
    if (first >= 0) failed_message = g_.texts_[static_cast<std::size_t>(first)];
    g_.barrier();
    return first;
  }
  void sum(std::vector<double>& values) override {
    g_.doubles_[static_cast<std::size_t>(rank_)] = values;
    g_.barrier();
    for (std::size_t i = 0; i < values.size(); ++i) {
      double s = 0;
      for (const auto& v : g_.doubles_) s += v.at(i);
      values[i] = s;
    }
    g_.barrier();
  }
  bool all(bool value) override {
    std::vector<double> v{value ? 0.0 : 1.0};
    sum(v);
    return v[0] == 0;
  }
  void all_gather(const std::vector<double>& mine, std::vector<double>& all) override {
    g_.doubles_[static_cast<std::size_t>(rank_)] = mine;
    g_.barrier();
    all.clear();
    for (const auto& v : g_.doubles_) all.insert(all.end(), v.begin(), v.end());
    g_.barrier();
  }
  void gather(const std::vector<float>& mine, std::vector<float>& all, int root) override {
    g_.floats_[static_cast<std::size_t>(rank_)] = mine;
    g_.barrier();
    all.clear();
    if (rank_ == root)
      for (const auto& v : g_.floats_) all.insert(all.end(), v.begin(), v.end());
    g_.barrier();
  }
  void exchange(const std::vector<Transfer>& transfers) override {
    std::unique_lock<std::mutex> lock(g_.mu_);
    for (const Transfer& t : transfers)
      if (t.send) g_.mail_[{rank_, t.peer, t.send_tag}].emplace_back(t.send, t.send + t.count);
    g_.cv_.notify_all();
    for (const Transfer& t : transfers) {
      if (!t.recv) continue;
      auto& q = g_.mail_[{t.peer, rank_, t.recv_tag}];
      g_.cv_.wait(lock, [&] { return !q.empty(); });
      std::copy(q.front().begin(), q.front().end(), t.recv);
      q.pop_front();
    }
  }

private:
  ThreadGroup& g_;
  int rank_;
};

}  // namespace clfdtd::test
