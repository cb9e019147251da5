// The RankLink of the process's Communicator (rank_link.hpp).
#include "parallel/communicator.hpp"
#include "parallel/rank_link.hpp"

namespace clfdtd::parallel {

namespace {

class CommunicatorLink final : public RankLink {
public:
  explicit CommunicatorLink(Communicator& comm) : comm_(comm) {}
  int rank() const override { return comm_.rank(); }
  int size() const override { return comm_.size(); }
  int first_failed(bool ok, const std::string& message, std::string& failed_message) override {
    return comm_.first_failed(ok, message, failed_message);
  }
  void sum(std::vector<double>& values) override { comm_.sum(values); }
  bool all(bool value) override { return comm_.all(value); }
  void all_gather(const std::vector<double>& mine, std::vector<double>& all) override {
    comm_.all_gather(mine, all);
  }
  void gather(const std::vector<float>& mine, std::vector<float>& all, int root) override {
    comm_.gather(mine, all, root);
  }
  void exchange(const std::vector<Transfer>& transfers) override {
    std::vector<Communicator::Request> requests;
    for (const Transfer& t : transfers)  // receives first: a send never waits for its match
      if (t.recv) requests.push_back(comm_.receive(t.recv, t.count, t.peer, t.recv_tag));
    for (const Transfer& t : transfers)
      if (t.send) requests.push_back(comm_.send(t.send, t.count, t.peer, t.send_tag));
    comm_.wait_all(requests);
  }

private:
  Communicator& comm_;
};

}  // namespace

std::unique_ptr<RankLink> communicator_link(Communicator& comm) {
  return std::make_unique<CommunicatorLink>(comm);
}

}  // namespace clfdtd::parallel
