// Bytes over RankLink (peer_bytes.hpp).
#include "parallel/peer_bytes.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace clfdtd::parallel {

namespace {

constexpr std::size_t kLengthFloats = sizeof(std::uint64_t) / sizeof(float);

std::size_t floats_for(std::size_t bytes) { return (bytes + sizeof(float) - 1) / sizeof(float); }

}  // namespace

void exchange_bytes(RankLink& link, std::vector<BytesTransfer>& transfers) {
  const std::size_t n = transfers.size();
  // First the lengths, so that each side knows how many floats the payload takes.
  std::vector<std::vector<float>> send_len(n, std::vector<float>(kLengthFloats)),
      recv_len(n, std::vector<float>(kLengthFloats));
  std::vector<RankLink::Transfer> lengths(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t len = transfers[i].send.size();
    std::memcpy(send_len[i].data(), &len, sizeof len);
    lengths[i] = {transfers[i].peer, transfers[i].send_tag, transfers[i].recv_tag,
                  send_len[i].data(), recv_len[i].data(), kLengthFloats};
  }
  link.exchange(lengths);
  // RankLink::Transfer has one count for both ways: both sides pad to the longer message, whose
  // length each knows now.
  std::vector<std::vector<float>> send(n), recv(n);
  std::vector<RankLink::Transfer> payloads;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t len = 0;
    std::memcpy(&len, recv_len[i].data(), sizeof len);
    transfers[i].received.assign(static_cast<std::size_t>(len), 0);
    const std::size_t count =
        floats_for(std::max(transfers[i].send.size(), transfers[i].received.size()));
    send[i].assign(count, 0.0f);
    recv[i].assign(count, 0.0f);
    if (!transfers[i].send.empty())
      std::memcpy(send[i].data(), transfers[i].send.data(), transfers[i].send.size());
    // Both sides know the count: a message of no floats is left out on both.
    if (count == 0) continue;
    payloads.push_back({transfers[i].peer, transfers[i].send_tag, transfers[i].recv_tag,
                        send[i].data(), recv[i].data(), count});
  }
  link.exchange(payloads);
  for (std::size_t i = 0; i < n; ++i)
    if (!transfers[i].received.empty())
      std::memcpy(transfers[i].received.data(), recv[i].data(), transfers[i].received.size());
}

}  // namespace clfdtd::parallel
