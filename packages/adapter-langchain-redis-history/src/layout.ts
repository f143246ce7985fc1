import type { BaseMessage } from '@langchain/core/messages';
import { CHAT_ROLES, MemoryMatrixError, type ChatMessage, type ChatRole, type Metadata } from '@memory-matrix/spec';
import { ADAPTER } from './context';

/**
 * How a memory-matrix chat message is a LangChain message (what a LangChain.js app's
 * `RedisChatMessageHistory` stores; @langchain/core serialises it with `toDict()` into
 * `{"type": …, "data": {"content": …, "additional_kwargs": …, …}}`):
 * - role user → `HumanMessage`, assistant → `AIMessage`, system → `SystemMessage`, tool →
 *   `ToolMessage` with an empty `tool_call_id` (LangChain requires one; the contract has none);
 * - content → `content` (a string);
 * - createdAt and metadata → `additional_kwargs.createdAt` / `additional_kwargs.metadata`, LangChain's
 *   bag for "additional payload data associated with the message".
 */
export const MESSAGE_CLASSES: Record<ChatRole, (content: string, kw: Record<string, unknown>) => BaseMessage> = {
  user: (content, additional_kwargs) => new (core().HumanMessage)({ content, additional_kwargs }),
  assistant: (content, additional_kwargs) => new (core().AIMessage)({ content, additional_kwargs }),
  system: (content, additional_kwargs) => new (core().SystemMessage)({ content, additional_kwargs }),
  tool: (content, additional_kwargs) => new (core().ToolMessage)({ content, additional_kwargs, tool_call_id: '' }),
};

/** @langchain/core's message classes, loaded on first use (the registry lists every driver; runs that never open this one skip the load). */
function core(): typeof import('@langchain/core/messages') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred load, see above
  return require('@langchain/core/messages') as typeof import('@langchain/core/messages');
}

/** LangChain message type (`BaseMessage.getType()`) → role. */
const ROLES: Record<string, ChatRole> = { human: 'user', ai: 'assistant', system: 'system', tool: 'tool' };

/** The LangChain message of a contract message. INVALID_INPUT naming `where` for a role, content, createdAt or metadata of the wrong type. */
export function toLangchain(m: ChatMessage, where: string): BaseMessage {
  const bad = (why: string) => new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${where}: ${why}`);
  if (typeof m !== 'object' || m === null) throw bad('not an object');
  if (!CHAT_ROLES.includes(m.role)) throw bad(`role must be one of ${CHAT_ROLES.join(', ')}, got ${JSON.stringify(m.role)}`);
  if (typeof m.content !== 'string') throw bad('content must be a string');
  if (typeof m.createdAt !== 'string') throw bad('createdAt must be a string');
  if (typeof m.metadata !== 'object' || m.metadata === null || Array.isArray(m.metadata)) throw bad('metadata must be an object');
  return MESSAGE_CLASSES[m.role](m.content, { createdAt: m.createdAt, metadata: m.metadata });
}

/**
 * The contract message of a LangChain message read back (position `index` of `key`, oldest first).
 * PAYLOAD_UNSUPPORTED naming key and index when it is not one this layout wrote: a type other than
 * human/ai/system/tool, content that is not a string (LangChain turns a missing content into an
 * empty content-block list `[]`), no `additional_kwargs.createdAt` string or `metadata` object.
 */
export function fromLangchain(m: BaseMessage, key: string, index: number): ChatMessage {
  const bad = (why: string) => new MemoryMatrixError('PAYLOAD_UNSUPPORTED', `${ADAPTER}: ${key}[${index}]: ${why}`);
  const type = m.getType();
  const role = ROLES[type];
  if (!role) throw bad(`message type ${JSON.stringify(type)} is not human, ai, system or tool`);
  if (typeof m.content !== 'string') throw bad(`content is not a string (${JSON.stringify(m.content).slice(0, 80)})`);
  const kw = (m.additional_kwargs ?? {}) as Record<string, unknown>;
  if (typeof kw.createdAt !== 'string') throw bad('no additional_kwargs.createdAt (not written by this layout)');
  const md = kw.metadata;
  if (typeof md !== 'object' || md === null || Array.isArray(md)) throw bad('no additional_kwargs.metadata object (not written by this layout)');
  return { role, content: m.content, createdAt: kw.createdAt, metadata: md as Metadata };
}
