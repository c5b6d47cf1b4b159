// Reverse Cuthill–McKee (Cuthill & McKee 1969; George 1971; pseudo-peripheral start after
// George & Liu 1979), and the gather passes that move vectors between a user's row order
// and a matrix's internal order.
#include <texstream/linalg/Reordering.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/IndexTextures.h>
#include <texstream/linalg/RowBlocks.h>
#include <texstream/stream/Aliasing.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Vector.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace texstream::linalg {

namespace {

/// The symmetrised adjacency (A + A^T without the diagonal), sorted, deduplicated.
std::vector<std::vector<std::int32_t>> adjacency(const Csr& A) {
  std::vector<std::vector<std::int32_t>> adj(A.rows);
  for (std::size_t i = 0; i < A.rows; ++i) {
    for (std::int64_t e = A.rowPtr[i]; e < A.rowPtr[i + 1]; ++e) {
      const std::int32_t j = A.colIdx[std::size_t(e)];
      if (std::size_t(j) == i) continue;
      adj[i].push_back(j);
      adj[std::size_t(j)].push_back(std::int32_t(i));
    }
  }
  for (auto& a : adj) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  return adj;
}

/// Breadth-first levels from `root` over unvisited-by-`mark` vertices; returns the vertices
/// of the last level and the number of levels.
std::pair<std::vector<std::int32_t>, int> lastLevel(const std::vector<std::vector<std::int32_t>>& adj,
                                                     std::int32_t root, std::vector<int>& stamp, int token) {
  std::vector<std::int32_t> level{root}, next;
  stamp[std::size_t(root)] = token;
  int depth = 1;
  for (;;) {
    next.clear();
    for (std::int32_t v : level) {
      for (std::int32_t w : adj[std::size_t(v)]) {
        if (stamp[std::size_t(w)] == token) continue;
        stamp[std::size_t(w)] = token;
        next.push_back(w);
      }
    }
    if (next.empty()) return {level, depth};
    level.swap(next);
    ++depth;
  }
}

}  // namespace

std::vector<std::int32_t> reverseCuthillMcKee(const Csr& A) {
  A.validate("reverseCuthillMcKee");
  A.requireSquare("reverseCuthillMcKee");
  const std::size_t n = A.rows;
  const auto adj = adjacency(A);
  auto degree = [&](std::int32_t v) { return adj[std::size_t(v)].size(); };

  std::vector<std::int32_t> order;
  order.reserve(n);
  std::vector<char> placed(n, 0);
  std::vector<int> stamp(n, -1);
  int token = 0;
  // Components in order of their lowest-degree vertex; each from a pseudo-peripheral root.
  std::vector<std::int32_t> byDegree(n);
  std::iota(byDegree.begin(), byDegree.end(), 0);
  std::stable_sort(byDegree.begin(), byDegree.end(), [&](auto a, auto b) { return degree(a) < degree(b); });
  for (std::int32_t seed : byDegree) {
    if (placed[std::size_t(seed)]) continue;
    std::int32_t root = seed;
    auto [last, depth] = lastLevel(adj, root, stamp, token++);
    for (int tries = 0; tries < 8; ++tries) {  // George–Liu: move to a farthest low-degree vertex
      const std::int32_t candidate = *std::min_element(last.begin(), last.end(),
                                                       [&](auto a, auto b) { return degree(a) < degree(b); });
      auto [candidateLast, candidateDepth] = lastLevel(adj, candidate, stamp, token++);
      if (candidateDepth <= depth) break;
      root = candidate, depth = candidateDepth, last = std::move(candidateLast);
    }
    // Cuthill–McKee from root: breadth first, neighbours by increasing degree.
    std::size_t head = order.size();
    order.push_back(root);
    placed[std::size_t(root)] = 1;
    std::vector<std::int32_t> neighbours;
    while (head < order.size()) {
      const std::int32_t v = order[head++];
      neighbours.clear();
      for (std::int32_t w : adj[std::size_t(v)]) {
        if (!placed[std::size_t(w)]) neighbours.push_back(w);
      }
      std::stable_sort(neighbours.begin(), neighbours.end(), [&](auto a, auto b) { return degree(a) < degree(b); });
      for (std::int32_t w : neighbours) {
        placed[std::size_t(w)] = 1;
        order.push_back(w);
      }
    }
  }
  std::reverse(order.begin(), order.end());
  return order;
}

std::size_t bandwidth(const Csr& A, const std::vector<std::int32_t>& order) {
  std::vector<std::int64_t> position(A.rows);
  if (order.empty()) {
    std::iota(position.begin(), position.end(), 0);
  } else {
    for (std::size_t k = 0; k < order.size(); ++k) position[std::size_t(order[k])] = std::int64_t(k);
  }
  // Each row block's widest row on threads (RowBlocks.h), then the widest of those.
  const unsigned threads = workThreads(double(A.nonZeros()));
  std::vector<std::size_t> band(threads, 0);
  forWeightedRowBlocks(A.rowPtr, threads, [&](unsigned t, std::size_t first, std::size_t last) {
    std::size_t widest = 0;
    for (std::size_t i = first; i < last; ++i) {
      for (std::int64_t e = A.rowPtr[i]; e < A.rowPtr[i + 1]; ++e) {
        const std::int64_t d = position[i] - position[std::size_t(A.colIdx[std::size_t(e)])];
        widest = std::max(widest, std::size_t(d < 0 ? -d : d));
      }
    }
    band[t] = widest;
  });
  return *std::max_element(band.begin(), band.end());
}

Csr permuteSymmetric(const Csr& A, const std::vector<std::int32_t>& order) {
  if (order.size() != A.rows || A.rows != A.cols) {
    throw std::invalid_argument("permuteSymmetric: order has " + std::to_string(order.size()) +
                                " entries for a " + std::to_string(A.rows) + "x" + std::to_string(A.cols) +
                                " matrix (must be square, one entry per row)");
  }
  std::vector<std::int32_t> position(A.rows, -1);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::int32_t i = order[k];
    if (i < 0 || std::size_t(i) >= A.rows || position[std::size_t(i)] >= 0) {
      throw std::invalid_argument("permuteSymmetric: order is not a permutation (entry " + std::to_string(k) + ")");
    }
    position[std::size_t(i)] = std::int32_t(k);
  }
  Csr P;
  P.rows = P.cols = A.rows;
  P.rowPtr.assign(A.rows + 1, 0);
  for (std::size_t k = 0; k < A.rows; ++k) {
    const std::size_t i = std::size_t(order[k]);
    P.rowPtr[k + 1] = P.rowPtr[k] + (A.rowPtr[i + 1] - A.rowPtr[i]);
  }
  P.colIdx.resize(A.colIdx.size());
  P.values.resize(A.values.size());
  std::vector<std::pair<std::int32_t, double>> row;
  for (std::size_t k = 0; k < A.rows; ++k) {
    const std::size_t i = std::size_t(order[k]);
    row.clear();
    for (std::int64_t e = A.rowPtr[i]; e < A.rowPtr[i + 1]; ++e) {
      row.emplace_back(position[std::size_t(A.colIdx[std::size_t(e)])], A.values[std::size_t(e)]);
    }
    std::stable_sort(row.begin(), row.end(), [](auto& a, auto& b) { return a.first < b.first; });
    for (std::size_t m = 0; m < row.size(); ++m) {
      P.colIdx[std::size_t(P.rowPtr[k]) + m] = row[m].first;
      P.values[std::size_t(P.rowPtr[k]) + m] = row[m].second;
    }
  }
  return P;
}

// ---- RowPermutation --------------------------------------------------------------------

namespace {
gl::Texture indexTexture(const stream::Layout& layout, const std::vector<std::int32_t>& indices, const std::string& name) {
  std::vector<float> texels(layout.paddedSize(), -1.0f);
  for (std::size_t k = 0; k < indices.size(); ++k) texels[k] = float(indices[k]);
  gl::Texture t(layout.width(), layout.height(), gl::TextureFormat::RGBA32F, name);
  t.upload(texels.data());
  return t;
}
}  // namespace

RowPermutation::RowPermutation(std::vector<std::int32_t> userToInternal, const stream::Layout& internalLayout,
                               std::string name)
    : m_name(std::move(name)), m_userToInternal(std::move(userToInternal)), m_internalLayout(internalLayout) {
  const std::string title = "RowPermutation(\"" + m_name + "\")";
  const std::size_t n = m_userToInternal.size(), m = internalLayout.size();
  if (n == 0) throw std::invalid_argument(title + ": no rows");
  if (m < n) {
    throw std::invalid_argument(title + ": internal layout has " + std::to_string(m) + " elements for " +
                                std::to_string(n) + " rows");
  }
  if (m >= kExactFloatLimit) {
    throw std::invalid_argument(title + ": " + std::to_string(m) +
                                " internal elements; indices are stored as exact floats, so at most 2^24 - 1");
  }
  m_internalToUser.assign(m, -1);
  m_identity = m == n;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t p = m_userToInternal[i];
    if (p < 0 || std::size_t(p) >= m || m_internalToUser[std::size_t(p)] >= 0) {
      throw std::invalid_argument(title + ": row " + std::to_string(i) + " maps to internal element " +
                                  std::to_string(p) + ", which is out of range or taken");
    }
    m_internalToUser[std::size_t(p)] = std::int32_t(i);
    m_identity = m_identity && std::size_t(p) == i;
  }
  gl::StateGuard guard;
  m_userLayout = stream::Layout::forSize(n);
  m_identity = m_identity && m_userLayout == m_internalLayout;
  m_internalToUserTexture = indexTexture(m_internalLayout, m_internalToUser, m_name + ".internalToUser");
  m_userToInternalTexture = indexTexture(m_userLayout, m_userToInternal, m_name + ".userToInternal");
}

namespace {
/// out[i] = source[index[i]] for the elements of out (sparse/permute.glsl); index < 0 reads
/// zero.
void gather(const char* label, const gl::Texture& index, const stream::Vector& source, stream::Vector& out) {
  stream::Pass("sparse/permute")
      .label(label)
      .input("u_index", index)
      .input("u_source", source)
      .uniform("u_width", out.layout().width())
      .uniform("u_n", int(out.size()))
      .output(out)
      .run();
}

constexpr const char* kInPlace = "a permutation cannot be applied in place";
}  // namespace

void RowPermutation::requireVectors(const std::string& where, const stream::Vector& user,
                                    const stream::Vector& internal) const {
  if (user.empty() || internal.empty()) throw gl::Error(where + ": empty vector");
  if (user.size() != userSize()) {
    throw gl::Error(where + ": user vector \"" + user.name() + "\" has n=" + std::to_string(user.size()) +
                    ", expected " + std::to_string(userSize()));
  }
  if (internal.layout() != m_internalLayout) {
    throw gl::Error(where + ": internal vector \"" + internal.name() + "\" has " + internal.layout().describe() +
                    ", expected the internal layout " + m_internalLayout.describe() + " (makeInternalVector)");
  }
}

void RowPermutation::toInternal(const stream::Vector& user, stream::Vector& internal) const {
  permute(false, user, internal);
}

void RowPermutation::toUser(const stream::Vector& internal, stream::Vector& user) const { permute(true, internal, user); }

void RowPermutation::permute(bool intoUser, const stream::Vector& from, stream::Vector& to) const {
  const stream::Vector& user = intoUser ? to : from;
  const stream::Vector& internal = intoUser ? from : to;
  const char* toName = intoUser ? "user" : "internal";
  const char* fromName = intoUser ? "internal" : "user";
  const std::string where = "RowPermutation(\"" + m_name + "\")." + (intoUser ? "toUser" : "toInternal");
  requireVectors(where, user, internal);
  stream::requireDistinct(where, {toName, to}, {fromName, from}, kInPlace);
  gl::StateGuard guard;
  if (m_identity && user.layout() == m_internalLayout) {
    copy(from, to);
    return;
  }
  if (intoUser) gather("permute to user", m_userToInternalTexture, from, to);
  else gather("permute to internal", m_internalToUserTexture, from, to);
}

std::vector<double> RowPermutation::toInternal(std::span<const double> user) const {
  if (user.size() != userSize()) {
    throw std::invalid_argument("RowPermutation(\"" + m_name + "\").toInternal: " + std::to_string(user.size()) +
                                " values, expected " + std::to_string(userSize()));
  }
  std::vector<double> internal(m_internalLayout.size(), 0.0);
  for (std::size_t i = 0; i < user.size(); ++i) internal[std::size_t(m_userToInternal[i])] = user[i];
  return internal;
}

std::vector<double> RowPermutation::toUser(std::span<const double> internal) const {
  if (internal.size() != m_internalLayout.size()) {
    throw std::invalid_argument("RowPermutation(\"" + m_name + "\").toUser: " + std::to_string(internal.size()) +
                                " values, expected " + std::to_string(m_internalLayout.size()));
  }
  std::vector<double> user(userSize());
  for (std::size_t i = 0; i < user.size(); ++i) user[i] = internal[std::size_t(m_userToInternal[i])];
  return user;
}

}  // namespace texstream::linalg
