using DivCon.Harness.Programs;
using DivCon.Harness.Schemes;

namespace DivCon.Harness.Cyclic;

/// <summary>What a cyclic or symmetric test runs: the workload, the schemes, and the scheme that measures C^SP.</summary>
/// <param name="Kind"><c>cyclic</c> or <c>symmetric</c>.</param>
/// <param name="Programs">The workload (names unique).</param>
/// <param name="Schemes">The schemes to compare, in report order.</param>
/// <param name="SpScheme">
/// The scheme whose single-program arrangement measures C^SP, once per repetition and shared by every scheme, so all
/// schemes' NTTs have the same denominator.
/// </param>
/// <param name="Size">The programs' problem size, for the record.</param>
/// <param name="Settings">How to run it.</param>
public sealed record CyclicPlan(
    string Kind,
    IReadOnlyList<IWorkloadProgram> Programs,
    IReadOnlyList<SchemeDescriptor> Schemes,
    SchemeDescriptor SpScheme,
    string Size,
    CyclicSettings Settings);
