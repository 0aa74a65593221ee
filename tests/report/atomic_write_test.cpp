#include "report/atomic_write.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using numaperf::report::writeFileAtomically;

namespace {

class AtomicWrite : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/numaperf_atomic_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    for (const std::string& name : entries()) {
      std::string p = dir_ + "/" + name;
      struct stat st;
      if (stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
        for (const std::string& inner : entries(p)) unlink((p + "/" + inner).c_str());
        rmdir(p.c_str());
      } else {
        unlink(p.c_str());
      }
    }
    rmdir(dir_.c_str());
  }
  std::vector<std::string> entries(const std::string& d = "") const {
    std::vector<std::string> names;
    DIR* dir = opendir((d.empty() ? dir_ : d).c_str());
    if (dir == nullptr) return names;
    while (dirent* e = readdir(dir)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") names.push_back(n);
    }
    closedir(dir);
    return names;
  }
  static std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  std::string dir_;
};

}  // namespace

TEST_F(AtomicWrite, CreatesAndReplaces) {
  std::string path = dir_ + "/out.json";
  std::string error;
  ASSERT_TRUE(writeFileAtomically(path, "first", &error)) << error;
  EXPECT_EQ(slurp(path), "first");
  ASSERT_TRUE(writeFileAtomically(path, std::string(100000, 'x'), &error)) << error;
  EXPECT_EQ(slurp(path), std::string(100000, 'x'));
  ASSERT_TRUE(writeFileAtomically(path, "", &error)) << error;
  EXPECT_EQ(slurp(path), "");
  EXPECT_EQ(entries(), std::vector<std::string>{"out.json"});  // no temp files left
}

TEST_F(AtomicWrite, RelativePath) {
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
  ASSERT_EQ(chdir(dir_.c_str()), 0);
  std::string error;
  bool ok = writeFileAtomically("rel.txt", "relative", &error);
  ASSERT_EQ(chdir(cwd), 0);
  ASSERT_TRUE(ok) << error;
  EXPECT_EQ(slurp(dir_ + "/rel.txt"), "relative");
  EXPECT_EQ(entries(), std::vector<std::string>{"rel.txt"});
}

TEST_F(AtomicWrite, MissingDirectoryFails) {
  std::string path = dir_ + "/no/such/dir/out.json";
  std::string error;
  EXPECT_FALSE(writeFileAtomically(path, "data", &error));
  EXPECT_NE(error.find("No such file or directory"), std::string::npos) << error;
  EXPECT_NE(error.find("cannot create temporary file"), std::string::npos) << error;
  EXPECT_TRUE(entries().empty());
}

TEST_F(AtomicWrite, TargetIsADirectoryLeavesItAndNoTempFile) {
  std::string target = dir_ + "/report";
  ASSERT_EQ(mkdir(target.c_str(), 0755), 0);
  std::string keep = target + "/keep.txt";
  ASSERT_TRUE(writeFileAtomically(keep, "kept", nullptr));
  std::string error;
  EXPECT_FALSE(writeFileAtomically(target, "data", &error));
  EXPECT_NE(error.find(target), std::string::npos) << error;
  EXPECT_NE(error.find("Is a directory"), std::string::npos) << error;
  // Target unchanged, no temporary file left beside it.
  struct stat st;
  ASSERT_EQ(stat(target.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(slurp(keep), "kept");
  EXPECT_EQ(entries(), std::vector<std::string>{"report"});
}

TEST_F(AtomicWrite, ExistingTargetUnchangedOnFailure) {
  // The directory path component is a regular file: creation fails, and the
  // existing sibling target is untouched.
  std::string target = dir_ + "/out.json";
  ASSERT_TRUE(writeFileAtomically(target, "original", nullptr));
  std::string error;
  EXPECT_FALSE(writeFileAtomically(target + "/x", "new", &error));
  EXPECT_NE(error.find("Not a directory"), std::string::npos) << error;
  EXPECT_EQ(slurp(target), "original");
  EXPECT_EQ(entries(), std::vector<std::string>{"out.json"});
}

TEST_F(AtomicWrite, EmptyAndDirectoryLikePaths) {
  std::string error;
  EXPECT_FALSE(writeFileAtomically("", "x", &error));
  EXPECT_EQ(error, "empty output path");
  EXPECT_FALSE(writeFileAtomically(dir_ + "/", "x", &error));
  EXPECT_NE(error.find("names a directory"), std::string::npos);
  EXPECT_TRUE(entries().empty());
}
