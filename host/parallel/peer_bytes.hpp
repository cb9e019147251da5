// Bytes between neighbouring ranks over RankLink::exchange (which moves floats): the setup of
// the device-to-device halo path trades CUDA IPC exports this way (peer_halo.hpp). Each message
// is its length (8 bytes) and then its bytes, each padded to whole floats; the floats are only
// carried, never computed on, so every bit pattern arrives as sent.
#pragma once
#include <vector>

#include "parallel/rank_link.hpp"

namespace clfdtd::parallel {

struct BytesTransfer {
  int peer = -1;
  int send_tag = 0, recv_tag = 0;  // as RankLink::Transfer; a tag used by no other message
  std::vector<unsigned char> send;
  std::vector<unsigned char> received;  // filled by exchange_bytes
};

// Every transfer at once, as RankLink::exchange; both sides of a pair must call it together.
void exchange_bytes(RankLink& link, std::vector<BytesTransfer>& transfers);

}  // namespace clfdtd::parallel
