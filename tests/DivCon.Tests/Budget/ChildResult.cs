namespace DivCon.Tests.Budget;

/// <summary>What a child process run in a test cgroup (<see cref="TestCgroup.Run"/>) left: its exit code and both outputs.</summary>
internal sealed record ChildResult(int ExitCode, string Output, string Error);
