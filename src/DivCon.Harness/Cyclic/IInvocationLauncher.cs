using DivCon.Harness.Progress;

namespace DivCon.Harness.Cyclic;

/// <summary>
/// Starts one independent invocation of a cyclic test and returns its raw times: the <c>divcon</c> CLI starts a child
/// process of itself; tests run one in process on virtual time. The <see cref="InvocationDriver"/> decides how many and
/// in which order; a launcher only runs the one it is asked for.
/// </summary>
public interface IInvocationLauncher
{
    /// <summary>Runs invocation <paramref name="invocation"/> (1-based) of the <paramref name="of"/> planned so far.</summary>
    /// <exception cref="ProgramRunException">The invocation failed (a program failed, or the child process did).</exception>
    Task<CyclicInvocation> RunAsync(int invocation, int of, IRunProgress progress, CancellationToken cancellationToken);
}
