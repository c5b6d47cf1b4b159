#pragma once
// Row orderings of sparse matrices and the vector permutations they induce.
//
// - reverseCuthillMcKee(): the bandwidth-reducing ordering (Cuthill & McKee 1969, reversed
//   after George 1971) on the symmetrised pattern A + A^T, for BcrsMatrix (Buatois et al.
//   2008 §2.2.3 tried it; the CNC saw no gain).
// - RowPermutation: a matrix that stores its rows in an internal order (SegmentMatrix sorts
//   rows by non-zero count, Bolz et al. 2003 §3; BcrsMatrix optionally by RCM) keeps one of
//   these, so users upload and download vectors in their own row order while CG runs on
//   internally ordered vectors. Internal positions are element indices of a texture layout
//   (`internalLayout()`); positions that hold no user row ("dead slots") read as zero.
#include <texstream/gl/Texture.h>
#include <texstream/stream/Layout.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace texstream::stream {
class Vector;
}

namespace texstream::linalg {

struct Csr;

/// The reverse Cuthill–McKee order of a square matrix's pattern (symmetrised): `order[k]`
/// is the original row placed at position k. Each connected component starts from a
/// pseudo-peripheral vertex (George–Liu); neighbours are visited by increasing degree.
/// Throws std::invalid_argument for a non-square or invalid CSR.
std::vector<std::int32_t> reverseCuthillMcKee(const Csr& A);

/// The bandwidth max |i - j| over the stored entries of A (after an optional reordering
/// `order` as returned by reverseCuthillMcKee: row order[k] becomes row k).
std::size_t bandwidth(const Csr& A, const std::vector<std::int32_t>& order = {});

/// P A P^T for `order` as above (row order[k] of A becomes row k, same for columns).
Csr permuteSymmetric(const Csr& A, const std::vector<std::int32_t>& order);

/// A bijection between the n rows of a user's vectors and n of the element positions of an
/// internal layout (which may have more positions than n: the extra ones are dead slots).
class RowPermutation {
 public:
  RowPermutation() = default;
  /// userToInternal[i] = the internal element index of user row i, distinct, each in
  /// [0, internalLayout.size()). Builds two small index textures (exact float indices,
  /// so internalLayout.size() must be below 2^24; std::invalid_argument otherwise).
  RowPermutation(std::vector<std::int32_t> userToInternal, const stream::Layout& internalLayout, std::string name);

  std::size_t userSize() const { return m_userToInternal.size(); }
  const stream::Layout& internalLayout() const { return m_internalLayout; }
  /// True when internal order == user order and the layouts agree (no pass needed).
  bool isIdentity() const { return m_identity; }
  /// n entries: internal element index of user row i.
  const std::vector<std::int32_t>& userToInternal() const { return m_userToInternal; }
  /// internalLayout().size() entries: the user row at internal position p, or -1 (dead slot).
  const std::vector<std::int32_t>& internalToUser() const { return m_internalToUser; }

  /// internal[p] = user[internalToUser[p]] (0 at dead slots): one gather pass. `user` has
  /// n elements in any layout; `internal` has internalLayout(). Throws gl::Error on shapes.
  void toInternal(const stream::Vector& user, stream::Vector& internal) const;
  /// user[i] = internal[userToInternal[i]]: one gather pass. `internal` has
  /// internalLayout(); `user` n elements in any layout.
  void toUser(const stream::Vector& internal, stream::Vector& user) const;
  /// The same on the CPU (internal vectors have internalLayout().size() values).
  std::vector<double> toInternal(std::span<const double> user) const;
  std::vector<double> toUser(std::span<const double> internal) const;

  /// GPU index textures, each a vector of indices stored as exact floats: per internal
  /// element the user row (-1 for dead slots), in internalLayout(); and per user row the
  /// internal element index, in Layout::forSize(n). Readable by other kernels with
  /// shaders/sparse/element.glsl's fetchElement().
  const gl::Texture& internalToUserTexture() const { return m_internalToUserTexture; }
  const gl::Texture& userToInternalTexture() const { return m_userToInternalTexture; }

 private:
  /// gl::Error at `where` unless user has n elements and internal the internal layout.
  void requireVectors(const std::string& where, const stream::Vector& user, const stream::Vector& internal) const;
  /// toUser (intoUser) or toInternal: checks, then the gather (a copy where the orders agree).
  void permute(bool intoUser, const stream::Vector& from, stream::Vector& to) const;

  std::string m_name;
  std::vector<std::int32_t> m_userToInternal, m_internalToUser;
  stream::Layout m_internalLayout, m_userLayout;
  bool m_identity = false;
  gl::Texture m_internalToUserTexture, m_userToInternalTexture;
};

}  // namespace texstream::linalg
