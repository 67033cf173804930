#include "counter.hpp"
int from_other_file() {
  requests.push_back(1);
  Registry::get().count += 10;
  return next_id();
}
