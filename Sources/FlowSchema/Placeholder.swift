internal import FlowCore
