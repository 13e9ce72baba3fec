using DivCon.Scheduling;

namespace DivCon.Multiprogramming;

// Parallel loops as the program, whose workers can move between chunks (ChunkedLoops.cs has the protocol). Plain
// Parallel.For on a program keeps a worker for as long as its root replica finds work (README, "Guarantees"); these
// loops give a worker the policy moves away back within one chunk.
public sealed partial class ProgramHandle
{
    /// <summary>
    /// Runs <paramref name="body"/> for every index from <paramref name="fromInclusive"/> to <paramref name="toExclusive"/>
    /// on the program's workers, in chunks between which a worker the policy moves away leaves the loop (its remaining
    /// range goes to the program's other workers); blocks until every chunk is done. Results, exceptions and cancellation
    /// as <see cref="Parallel.For(int, int, Action{int})"/>. From inside one of the program's own tasks the calling
    /// thread runs chunks too, until none is left, and its worker cannot move before (a synchronous call cannot give
    /// its thread back; the loop's other workers still can): use
    /// <see cref="ParallelForAsync(int, int, Action{int}, ChunkedLoopOptions?)"/> and <c>await</c> there.
    /// </summary>
    /// <exception cref="AggregateException">One or more iterations threw.</exception>
    /// <exception cref="OperationCanceledException">The options' token was canceled before the loop ended.</exception>
    /// <exception cref="ObjectDisposedException">The program has been removed (or its removal has begun).</exception>
    public void ParallelFor(int fromInclusive, int toExclusive, Action<int> body, ChunkedLoopOptions? options = null)
    {
        ThrowIfRemoving();
        ChunkedLoops.For(_scheduler, fromInclusive, toExclusive, body, options);
    }

    /// <summary>
    /// As <see cref="ParallelFor(int, int, Action{int}, ChunkedLoopOptions?)"/>, calling <paramref name="rangeBody"/> once
    /// per chunk with its bounds (inclusive, exclusive), for bodies that keep state across a chunk's iterations.
    /// </summary>
    /// <exception cref="AggregateException">One or more chunks threw.</exception>
    /// <exception cref="OperationCanceledException">The options' token was canceled before the loop ended.</exception>
    /// <exception cref="ObjectDisposedException">The program has been removed (or its removal has begun).</exception>
    public void ParallelFor(int fromInclusive, int toExclusive, Action<int, int> rangeBody, ChunkedLoopOptions? options = null)
    {
        ThrowIfRemoving();
        ChunkedLoops.For(_scheduler, fromInclusive, toExclusive, rangeBody, options);
    }

    /// <summary>
    /// As <see cref="ParallelFor(int, int, Action{int}, ChunkedLoopOptions?)"/> without blocking: every chunk runs in a
    /// task of the program, so awaiting the returned task inside one of the program's tasks holds no worker.
    /// </summary>
    /// <returns>A task faulted with every exception the iterations threw, canceled when the options' token stopped the loop, else successful.</returns>
    /// <exception cref="ObjectDisposedException">The program has been removed (or its removal has begun).</exception>
    public Task ParallelForAsync(int fromInclusive, int toExclusive, Action<int> body, ChunkedLoopOptions? options = null)
    {
        ThrowIfRemoving();
        return ChunkedLoops.ForAsync(_scheduler, fromInclusive, toExclusive, body, options);
    }

    /// <summary>As <see cref="ParallelForAsync(int, int, Action{int}, ChunkedLoopOptions?)"/>, calling <paramref name="rangeBody"/> once per chunk with its bounds.</summary>
    /// <returns>A task faulted with every exception the chunks threw, canceled when the options' token stopped the loop, else successful.</returns>
    /// <exception cref="ObjectDisposedException">The program has been removed (or its removal has begun).</exception>
    public Task ParallelForAsync(int fromInclusive, int toExclusive, Action<int, int> rangeBody, ChunkedLoopOptions? options = null)
    {
        ThrowIfRemoving();
        return ChunkedLoops.ForAsync(_scheduler, fromInclusive, toExclusive, rangeBody, options);
    }

    /// <summary>
    /// Runs the asynchronous <paramref name="body"/> for every element of <paramref name="source"/> on the program's
    /// workers, as <c>Parallel.ForEachAsync</c> with the program's scheduler does, except that between two elements a
    /// worker the policy moves away leaves the loop (the element after goes to another task of the program).
    /// </summary>
    /// <returns>A task faulted with every exception the bodies threw, canceled when the options' token stopped the loop, else successful.</returns>
    /// <exception cref="ObjectDisposedException">The program has been removed (or its removal has begun).</exception>
    public Task ParallelForEachAsync<TSource>(IEnumerable<TSource> source, Func<TSource, CancellationToken, ValueTask> body, ChunkedLoopOptions? options = null)
    {
        ThrowIfRemoving();
        return ChunkedLoops.ForEachAsync(_scheduler, source, body, options);
    }
}
