using DivCon.Tests.Budget;

namespace DivCon.Tests.Infrastructure;

/// <summary>
/// A test that needs to create a cgroup with a CPU quota (Linux, root or a delegated hierarchy, a writable cpu
/// controller). Where none can be made, the test is reported Skipped with the reason (never Passed): the check runs
/// once, at discovery, by creating and removing a probe group (<see cref="TestCgroup.UnavailableReason"/>).
/// </summary>
public sealed class CgroupFactAttribute : FactAttribute
{
    public CgroupFactAttribute()
    {
        if (TestCgroup.UnavailableReason is string reason)
        {
            Skip = "No cgroup with a CPU quota can be created here: " + reason;
        }
    }
}
