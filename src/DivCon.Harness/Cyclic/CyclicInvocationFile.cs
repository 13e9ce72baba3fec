using DivCon.Metrics.Results;

namespace DivCon.Harness.Cyclic;

/// <summary>
/// What a child process of <c>divcon cyclic --repeat N</c> writes (<c>invocation.json</c>): the configuration it ran
/// and its one invocation's raw times, for the parent to collect. No analysis: that is the parent's, over all of them.
/// </summary>
/// <param name="Configuration">What was run (the parent checks it is its own).</param>
/// <param name="Invocation">The raw times.</param>
public sealed record CyclicInvocationFile(CyclicPlanRecord Configuration, CyclicInvocation Invocation) : ExperimentFile(FileKind)
{
    /// <summary>The file kind and base name.</summary>
    public const string FileKind = "invocation";
}
