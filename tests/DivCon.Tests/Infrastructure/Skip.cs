namespace DivCon.Tests.Infrastructure;

/// <summary>
/// Dynamic skips: a test that cannot run on this machine (too few processors, no pinning) reports Skipped with its
/// reason instead of returning early as Passed. xUnit 2.9 treats an exception whose message starts with
/// <c>$XunitDynamicSkip$</c> as a skip (the contract xUnit v3's <c>Assert.Skip</c> uses too).
/// </summary>
public static class Skip
{
    private const string Token = "$XunitDynamicSkip$";

    /// <summary>Skips the running test with <paramref name="reason"/> when <paramref name="condition"/> holds.</summary>
    public static void If(bool condition, string reason)
    {
        if (condition)
        {
            throw new SkipException(Token + reason);
        }
    }

    /// <summary>Skips unless this process may run on at least <paramref name="processors"/> processors.</summary>
    public static void UnlessProcessors(int processors)
        => If(
            DivCon.Scheduling.ThreadAffinity.GetProcessAffinity().Count < processors,
            $"needs {processors} processors; this process may use {DivCon.Scheduling.ThreadAffinity.GetProcessAffinity().Count}");

    private sealed class SkipException(string message) : Exception(message);
}
