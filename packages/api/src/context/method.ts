import type { AreaName, Contract, Method, MethodName, OutputOf, ParsedInputOf } from '@medlocker/core';

/*
 * The input and output of a method of core's contract, named by area and method as the RPC path names
 * them: the types of a service function `(deps, actor, input)`. A service binds them to its area once,
 * `type In<M extends MethodName<'audit'>> = MethodIn<'audit', M>` and
 * `type Out<M extends MethodName<'audit'>> = Promise<MethodOut<'audit', M>>`, then writes
 * `search(deps, actor, input: In<'search'>): Out<'search'>`.
 */

type Def<A extends AreaName, M extends MethodName<A>> = Contract[A][M] extends Method ? Contract[A][M] : never;

/** A method's input once the contract's schema has checked and normalised it. */
export type MethodIn<A extends AreaName, M extends MethodName<A>> = ParsedInputOf<Def<A, M>>;

/** What a method answers. */
export type MethodOut<A extends AreaName, M extends MethodName<A>> = OutputOf<Def<A, M>>;
