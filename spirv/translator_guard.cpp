// What the installed SPIRV-LLVM-Translator cannot take even in a module SPIRV-Tools accepts.
//
// Opcodes: the translator 15.0.0 (Debian's libllvmspirvlib15) can decode: the operations
// its SPIRVEntry::create factory knows, read from its SPIRVOpCodeEnum.h (the v15.0.0 tag). For any
// other opcode the factory asserts "Not implemented" (an abort in Debian's build, which keeps
// assertions on) or returns null; SPIRV-Tools accepts several of them in valid modules
// (OpExecutionModeId for LocalSizeId, OpDecorateString, OpPtrEqual, OpSDot, ...).
// Update this list when the translator is upgraded.
#include "spirv/translator_guard.h"

#include <spirv-tools/libspirv.h>
#include <algorithm>
#include <iterator>
#include <spirv/unified1/spirv.hpp>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "spirv/instructions.h"

namespace tessera::spirv {
namespace {

constexpr spv::Op kTranslatorOpcodes[] = {
    spv::OpNop,
    spv::OpUndef,
    spv::OpSourceContinued,
    spv::OpSource,
    spv::OpSourceExtension,
    spv::OpName,
    spv::OpMemberName,
    spv::OpString,
    spv::OpLine,
    spv::OpExtension,
    spv::OpExtInstImport,
    spv::OpExtInst,
    spv::OpMemoryModel,
    spv::OpEntryPoint,
    spv::OpExecutionMode,
    spv::OpCapability,
    spv::OpTypeVoid,
    spv::OpTypeBool,
    spv::OpTypeInt,
    spv::OpTypeFloat,
    spv::OpTypeVector,
    spv::OpTypeMatrix,
    spv::OpTypeImage,
    spv::OpTypeSampler,
    spv::OpTypeSampledImage,
    spv::OpTypeArray,
    spv::OpTypeRuntimeArray,
    spv::OpTypeStruct,
    spv::OpTypeOpaque,
    spv::OpTypePointer,
    spv::OpTypeFunction,
    spv::OpTypeEvent,
    spv::OpTypeDeviceEvent,
    spv::OpTypeReserveId,
    spv::OpTypeQueue,
    spv::OpTypePipe,
    spv::OpTypeForwardPointer,
    spv::OpConstantTrue,
    spv::OpConstantFalse,
    spv::OpConstant,
    spv::OpConstantComposite,
    spv::OpConstantSampler,
    spv::OpConstantNull,
    spv::OpSpecConstantTrue,
    spv::OpSpecConstantFalse,
    spv::OpSpecConstant,
    spv::OpSpecConstantComposite,
    spv::OpSpecConstantOp,
    spv::OpFunction,
    spv::OpFunctionParameter,
    spv::OpFunctionEnd,
    spv::OpFunctionCall,
    spv::OpVariable,
    spv::OpImageTexelPointer,
    spv::OpLoad,
    spv::OpStore,
    spv::OpCopyMemory,
    spv::OpCopyMemorySized,
    spv::OpAccessChain,
    spv::OpInBoundsAccessChain,
    spv::OpPtrAccessChain,
    spv::OpArrayLength,
    spv::OpGenericPtrMemSemantics,
    spv::OpInBoundsPtrAccessChain,
    spv::OpDecorate,
    spv::OpMemberDecorate,
    spv::OpDecorationGroup,
    spv::OpGroupDecorate,
    spv::OpGroupMemberDecorate,
    spv::OpVectorExtractDynamic,
    spv::OpVectorInsertDynamic,
    spv::OpVectorShuffle,
    spv::OpCompositeConstruct,
    spv::OpCompositeExtract,
    spv::OpCompositeInsert,
    spv::OpCopyObject,
    spv::OpTranspose,
    spv::OpSampledImage,
    spv::OpImageSampleImplicitLod,
    spv::OpImageSampleExplicitLod,
    spv::OpImageSampleDrefImplicitLod,
    spv::OpImageSampleDrefExplicitLod,
    spv::OpImageSampleProjImplicitLod,
    spv::OpImageSampleProjExplicitLod,
    spv::OpImageSampleProjDrefImplicitLod,
    spv::OpImageSampleProjDrefExplicitLod,
    spv::OpImageFetch,
    spv::OpImageGather,
    spv::OpImageDrefGather,
    spv::OpImageRead,
    spv::OpImageWrite,
    spv::OpImage,
    spv::OpImageQueryFormat,
    spv::OpImageQueryOrder,
    spv::OpImageQuerySizeLod,
    spv::OpImageQuerySize,
    spv::OpImageQueryLod,
    spv::OpImageQueryLevels,
    spv::OpImageQuerySamples,
    spv::OpConvertFToU,
    spv::OpConvertFToS,
    spv::OpConvertSToF,
    spv::OpConvertUToF,
    spv::OpUConvert,
    spv::OpSConvert,
    spv::OpFConvert,
    spv::OpQuantizeToF16,
    spv::OpConvertPtrToU,
    spv::OpSatConvertSToU,
    spv::OpSatConvertUToS,
    spv::OpConvertUToPtr,
    spv::OpPtrCastToGeneric,
    spv::OpGenericCastToPtr,
    spv::OpGenericCastToPtrExplicit,
    spv::OpBitcast,
    spv::OpSNegate,
    spv::OpFNegate,
    spv::OpIAdd,
    spv::OpFAdd,
    spv::OpISub,
    spv::OpFSub,
    spv::OpIMul,
    spv::OpFMul,
    spv::OpUDiv,
    spv::OpSDiv,
    spv::OpFDiv,
    spv::OpUMod,
    spv::OpSRem,
    spv::OpSMod,
    spv::OpFRem,
    spv::OpFMod,
    spv::OpVectorTimesScalar,
    spv::OpMatrixTimesScalar,
    spv::OpVectorTimesMatrix,
    spv::OpMatrixTimesVector,
    spv::OpMatrixTimesMatrix,
    spv::OpOuterProduct,
    spv::OpDot,
    spv::OpIAddCarry,
    spv::OpISubBorrow,
    spv::OpUMulExtended,
    spv::OpSMulExtended,
    spv::OpAny,
    spv::OpAll,
    spv::OpIsNan,
    spv::OpIsInf,
    spv::OpIsFinite,
    spv::OpIsNormal,
    spv::OpSignBitSet,
    spv::OpLessOrGreater,
    spv::OpOrdered,
    spv::OpUnordered,
    spv::OpLogicalEqual,
    spv::OpLogicalNotEqual,
    spv::OpLogicalOr,
    spv::OpLogicalAnd,
    spv::OpLogicalNot,
    spv::OpSelect,
    spv::OpIEqual,
    spv::OpINotEqual,
    spv::OpUGreaterThan,
    spv::OpSGreaterThan,
    spv::OpUGreaterThanEqual,
    spv::OpSGreaterThanEqual,
    spv::OpULessThan,
    spv::OpSLessThan,
    spv::OpULessThanEqual,
    spv::OpSLessThanEqual,
    spv::OpFOrdEqual,
    spv::OpFUnordEqual,
    spv::OpFOrdNotEqual,
    spv::OpFUnordNotEqual,
    spv::OpFOrdLessThan,
    spv::OpFUnordLessThan,
    spv::OpFOrdGreaterThan,
    spv::OpFUnordGreaterThan,
    spv::OpFOrdLessThanEqual,
    spv::OpFUnordLessThanEqual,
    spv::OpFOrdGreaterThanEqual,
    spv::OpFUnordGreaterThanEqual,
    spv::OpShiftRightLogical,
    spv::OpShiftRightArithmetic,
    spv::OpShiftLeftLogical,
    spv::OpBitwiseOr,
    spv::OpBitwiseXor,
    spv::OpBitwiseAnd,
    spv::OpNot,
    spv::OpBitFieldInsert,
    spv::OpBitFieldSExtract,
    spv::OpBitFieldUExtract,
    spv::OpBitReverse,
    spv::OpBitCount,
    spv::OpDPdx,
    spv::OpDPdy,
    spv::OpFwidth,
    spv::OpDPdxFine,
    spv::OpDPdyFine,
    spv::OpFwidthFine,
    spv::OpDPdxCoarse,
    spv::OpDPdyCoarse,
    spv::OpFwidthCoarse,
    spv::OpEmitVertex,
    spv::OpEndPrimitive,
    spv::OpEmitStreamVertex,
    spv::OpEndStreamPrimitive,
    spv::OpControlBarrier,
    spv::OpMemoryBarrier,
    spv::OpAtomicLoad,
    spv::OpAtomicStore,
    spv::OpAtomicExchange,
    spv::OpAtomicCompareExchange,
    spv::OpAtomicCompareExchangeWeak,
    spv::OpAtomicIIncrement,
    spv::OpAtomicIDecrement,
    spv::OpAtomicIAdd,
    spv::OpAtomicISub,
    spv::OpAtomicSMin,
    spv::OpAtomicUMin,
    spv::OpAtomicSMax,
    spv::OpAtomicUMax,
    spv::OpAtomicAnd,
    spv::OpAtomicOr,
    spv::OpAtomicXor,
    spv::OpPhi,
    spv::OpLoopMerge,
    spv::OpSelectionMerge,
    spv::OpLabel,
    spv::OpBranch,
    spv::OpBranchConditional,
    spv::OpSwitch,
    spv::OpKill,
    spv::OpReturn,
    spv::OpReturnValue,
    spv::OpUnreachable,
    spv::OpLifetimeStart,
    spv::OpLifetimeStop,
    spv::OpGroupAsyncCopy,
    spv::OpGroupWaitEvents,
    spv::OpGroupAll,
    spv::OpGroupAny,
    spv::OpGroupBroadcast,
    spv::OpGroupIAdd,
    spv::OpGroupFAdd,
    spv::OpGroupFMin,
    spv::OpGroupUMin,
    spv::OpGroupSMin,
    spv::OpGroupFMax,
    spv::OpGroupUMax,
    spv::OpGroupSMax,
    spv::OpReadPipe,
    spv::OpWritePipe,
    spv::OpReservedReadPipe,
    spv::OpReservedWritePipe,
    spv::OpReserveReadPipePackets,
    spv::OpReserveWritePipePackets,
    spv::OpCommitReadPipe,
    spv::OpCommitWritePipe,
    spv::OpIsValidReserveId,
    spv::OpGetNumPipePackets,
    spv::OpGetMaxPipePackets,
    spv::OpGroupReserveReadPipePackets,
    spv::OpGroupReserveWritePipePackets,
    spv::OpGroupCommitReadPipe,
    spv::OpGroupCommitWritePipe,
    spv::OpEnqueueMarker,
    spv::OpEnqueueKernel,
    spv::OpGetKernelNDrangeSubGroupCount,
    spv::OpGetKernelNDrangeMaxSubGroupSize,
    spv::OpGetKernelWorkGroupSize,
    spv::OpGetKernelPreferredWorkGroupSizeMultiple,
    spv::OpRetainEvent,
    spv::OpReleaseEvent,
    spv::OpCreateUserEvent,
    spv::OpIsValidEvent,
    spv::OpSetUserEventStatus,
    spv::OpCaptureEventProfilingInfo,
    spv::OpGetDefaultQueue,
    spv::OpBuildNDRange,
    spv::OpImageSparseSampleImplicitLod,
    spv::OpImageSparseSampleExplicitLod,
    spv::OpImageSparseSampleDrefImplicitLod,
    spv::OpImageSparseSampleDrefExplicitLod,
    spv::OpImageSparseSampleProjImplicitLod,
    spv::OpImageSparseSampleProjExplicitLod,
    spv::OpImageSparseSampleProjDrefImplicitLod,
    spv::OpImageSparseSampleProjDrefExplicitLod,
    spv::OpImageSparseFetch,
    spv::OpImageSparseGather,
    spv::OpImageSparseDrefGather,
    spv::OpImageSparseTexelsResident,
    spv::OpNoLine,
    spv::OpAtomicFlagTestAndSet,
    spv::OpAtomicFlagClear,
    spv::OpTypePipeStorage,
    spv::OpConstantPipeStorage,
    spv::OpCreatePipeFromPipeStorage,
    spv::OpModuleProcessed,
    spv::OpDecorateId,
    spv::OpGroupNonUniformElect,
    spv::OpGroupNonUniformAll,
    spv::OpGroupNonUniformAny,
    spv::OpGroupNonUniformAllEqual,
    spv::OpGroupNonUniformBroadcast,
    spv::OpGroupNonUniformBroadcastFirst,
    spv::OpGroupNonUniformBallot,
    spv::OpGroupNonUniformInverseBallot,
    spv::OpGroupNonUniformBallotBitExtract,
    spv::OpGroupNonUniformBallotBitCount,
    spv::OpGroupNonUniformBallotFindLSB,
    spv::OpGroupNonUniformBallotFindMSB,
    spv::OpGroupNonUniformShuffle,
    spv::OpGroupNonUniformShuffleXor,
    spv::OpGroupNonUniformShuffleUp,
    spv::OpGroupNonUniformShuffleDown,
    spv::OpGroupNonUniformIAdd,
    spv::OpGroupNonUniformFAdd,
    spv::OpGroupNonUniformIMul,
    spv::OpGroupNonUniformFMul,
    spv::OpGroupNonUniformSMin,
    spv::OpGroupNonUniformUMin,
    spv::OpGroupNonUniformFMin,
    spv::OpGroupNonUniformSMax,
    spv::OpGroupNonUniformUMax,
    spv::OpGroupNonUniformFMax,
    spv::OpGroupNonUniformBitwiseAnd,
    spv::OpGroupNonUniformBitwiseOr,
    spv::OpGroupNonUniformBitwiseXor,
    spv::OpGroupNonUniformLogicalAnd,
    spv::OpGroupNonUniformLogicalOr,
    spv::OpGroupNonUniformLogicalXor,
    spv::OpGroupNonUniformRotateKHR,
    spv::OpSDotKHR,
    spv::OpUDotKHR,
    spv::OpSUDotKHR,
    spv::OpSDotAccSatKHR,
    spv::OpUDotAccSatKHR,
    spv::OpSUDotAccSatKHR,
    spv::OpSubgroupShuffleINTEL,
    spv::OpSubgroupShuffleDownINTEL,
    spv::OpSubgroupShuffleUpINTEL,
    spv::OpSubgroupShuffleXorINTEL,
    spv::OpSubgroupBlockReadINTEL,
    spv::OpSubgroupBlockWriteINTEL,
    spv::OpSubgroupImageBlockReadINTEL,
    spv::OpSubgroupImageBlockWriteINTEL,
    spv::OpSubgroupImageMediaBlockReadINTEL,
    spv::OpSubgroupImageMediaBlockWriteINTEL,
    spv::OpConstantFunctionPointerINTEL,
    spv::OpFunctionPointerCallINTEL,
    spv::OpAsmTargetINTEL,
    spv::OpAsmINTEL,
    spv::OpAsmCallINTEL,
    spv::OpAtomicFMinEXT,
    spv::OpAtomicFMaxEXT,
    spv::OpAssumeTrueKHR,
    spv::OpExpectKHR,
    spv::OpVmeImageINTEL,
    spv::OpTypeVmeImageINTEL,
    spv::OpTypeAvcImePayloadINTEL,
    spv::OpTypeAvcRefPayloadINTEL,
    spv::OpTypeAvcSicPayloadINTEL,
    spv::OpTypeAvcMcePayloadINTEL,
    spv::OpTypeAvcMceResultINTEL,
    spv::OpTypeAvcImeResultINTEL,
    spv::OpTypeAvcImeResultSingleReferenceStreamoutINTEL,
    spv::OpTypeAvcImeResultDualReferenceStreamoutINTEL,
    spv::OpTypeAvcImeSingleReferenceStreaminINTEL,
    spv::OpTypeAvcImeDualReferenceStreaminINTEL,
    spv::OpTypeAvcRefResultINTEL,
    spv::OpTypeAvcSicResultINTEL,
    spv::OpSubgroupAvcMceGetDefaultInterBaseMultiReferencePenaltyINTEL,
    spv::OpSubgroupAvcMceSetInterBaseMultiReferencePenaltyINTEL,
    spv::OpSubgroupAvcMceGetDefaultInterShapePenaltyINTEL,
    spv::OpSubgroupAvcMceSetInterShapePenaltyINTEL,
    spv::OpSubgroupAvcMceGetDefaultInterDirectionPenaltyINTEL,
    spv::OpSubgroupAvcMceSetInterDirectionPenaltyINTEL,
    spv::OpSubgroupAvcMceGetDefaultIntraLumaShapePenaltyINTEL,
    spv::OpSubgroupAvcMceGetDefaultInterMotionVectorCostTableINTEL,
    spv::OpSubgroupAvcMceGetDefaultHighPenaltyCostTableINTEL,
    spv::OpSubgroupAvcMceGetDefaultMediumPenaltyCostTableINTEL,
    spv::OpSubgroupAvcMceGetDefaultLowPenaltyCostTableINTEL,
    spv::OpSubgroupAvcMceSetMotionVectorCostFunctionINTEL,
    spv::OpSubgroupAvcMceGetDefaultIntraLumaModePenaltyINTEL,
    spv::OpSubgroupAvcMceGetDefaultNonDcLumaIntraPenaltyINTEL,
    spv::OpSubgroupAvcMceGetDefaultIntraChromaModeBasePenaltyINTEL,
    spv::OpSubgroupAvcMceSetAcOnlyHaarINTEL,
    spv::OpSubgroupAvcMceSetSourceInterlacedFieldPolarityINTEL,
    spv::OpSubgroupAvcMceSetSingleReferenceInterlacedFieldPolarityINTEL,
    spv::OpSubgroupAvcMceSetDualReferenceInterlacedFieldPolaritiesINTEL,
    spv::OpSubgroupAvcMceConvertToImePayloadINTEL,
    spv::OpSubgroupAvcMceConvertToImeResultINTEL,
    spv::OpSubgroupAvcMceConvertToRefPayloadINTEL,
    spv::OpSubgroupAvcMceConvertToRefResultINTEL,
    spv::OpSubgroupAvcMceConvertToSicPayloadINTEL,
    spv::OpSubgroupAvcMceConvertToSicResultINTEL,
    spv::OpSubgroupAvcMceGetMotionVectorsINTEL,
    spv::OpSubgroupAvcMceGetInterDistortionsINTEL,
    spv::OpSubgroupAvcMceGetBestInterDistortionsINTEL,
    spv::OpSubgroupAvcMceGetInterMajorShapeINTEL,
    spv::OpSubgroupAvcMceGetInterMinorShapeINTEL,
    spv::OpSubgroupAvcMceGetInterDirectionsINTEL,
    spv::OpSubgroupAvcMceGetInterMotionVectorCountINTEL,
    spv::OpSubgroupAvcMceGetInterReferenceIdsINTEL,
    spv::OpSubgroupAvcMceGetInterReferenceInterlacedFieldPolaritiesINTEL,
    spv::OpSubgroupAvcImeInitializeINTEL,
    spv::OpSubgroupAvcImeSetSingleReferenceINTEL,
    spv::OpSubgroupAvcImeSetDualReferenceINTEL,
    spv::OpSubgroupAvcImeRefWindowSizeINTEL,
    spv::OpSubgroupAvcImeAdjustRefOffsetINTEL,
    spv::OpSubgroupAvcImeConvertToMcePayloadINTEL,
    spv::OpSubgroupAvcImeSetMaxMotionVectorCountINTEL,
    spv::OpSubgroupAvcImeSetUnidirectionalMixDisableINTEL,
    spv::OpSubgroupAvcImeSetEarlySearchTerminationThresholdINTEL,
    spv::OpSubgroupAvcImeSetWeightedSadINTEL,
    spv::OpSubgroupAvcImeEvaluateWithSingleReferenceINTEL,
    spv::OpSubgroupAvcImeEvaluateWithDualReferenceINTEL,
    spv::OpSubgroupAvcImeEvaluateWithSingleReferenceStreaminINTEL,
    spv::OpSubgroupAvcImeEvaluateWithDualReferenceStreaminINTEL,
    spv::OpSubgroupAvcImeEvaluateWithSingleReferenceStreamoutINTEL,
    spv::OpSubgroupAvcImeEvaluateWithDualReferenceStreamoutINTEL,
    spv::OpSubgroupAvcImeEvaluateWithSingleReferenceStreaminoutINTEL,
    spv::OpSubgroupAvcImeEvaluateWithDualReferenceStreaminoutINTEL,
    spv::OpSubgroupAvcImeConvertToMceResultINTEL,
    spv::OpSubgroupAvcImeGetSingleReferenceStreaminINTEL,
    spv::OpSubgroupAvcImeGetDualReferenceStreaminINTEL,
    spv::OpSubgroupAvcImeStripSingleReferenceStreamoutINTEL,
    spv::OpSubgroupAvcImeStripDualReferenceStreamoutINTEL,
    spv::OpSubgroupAvcImeGetStreamoutSingleReferenceMajorShapeMotionVectorsINTEL,
    spv::OpSubgroupAvcImeGetStreamoutSingleReferenceMajorShapeDistortionsINTEL,
    spv::OpSubgroupAvcImeGetStreamoutSingleReferenceMajorShapeReferenceIdsINTEL,
    spv::OpSubgroupAvcImeGetStreamoutDualReferenceMajorShapeMotionVectorsINTEL,
    spv::OpSubgroupAvcImeGetStreamoutDualReferenceMajorShapeDistortionsINTEL,
    spv::OpSubgroupAvcImeGetStreamoutDualReferenceMajorShapeReferenceIdsINTEL,
    spv::OpSubgroupAvcImeGetBorderReachedINTEL,
    spv::OpSubgroupAvcImeGetTruncatedSearchIndicationINTEL,
    spv::OpSubgroupAvcImeGetUnidirectionalEarlySearchTerminationINTEL,
    spv::OpSubgroupAvcImeGetWeightingPatternMinimumMotionVectorINTEL,
    spv::OpSubgroupAvcImeGetWeightingPatternMinimumDistortionINTEL,
    spv::OpSubgroupAvcFmeInitializeINTEL,
    spv::OpSubgroupAvcBmeInitializeINTEL,
    spv::OpSubgroupAvcRefConvertToMcePayloadINTEL,
    spv::OpSubgroupAvcRefSetBidirectionalMixDisableINTEL,
    spv::OpSubgroupAvcRefSetBilinearFilterEnableINTEL,
    spv::OpSubgroupAvcRefEvaluateWithSingleReferenceINTEL,
    spv::OpSubgroupAvcRefEvaluateWithDualReferenceINTEL,
    spv::OpSubgroupAvcRefEvaluateWithMultiReferenceINTEL,
    spv::OpSubgroupAvcRefEvaluateWithMultiReferenceInterlacedINTEL,
    spv::OpSubgroupAvcRefConvertToMceResultINTEL,
    spv::OpSubgroupAvcSicInitializeINTEL,
    spv::OpSubgroupAvcSicConfigureSkcINTEL,
    spv::OpSubgroupAvcSicConfigureIpeLumaINTEL,
    spv::OpSubgroupAvcSicConfigureIpeLumaChromaINTEL,
    spv::OpSubgroupAvcSicGetMotionVectorMaskINTEL,
    spv::OpSubgroupAvcSicConvertToMcePayloadINTEL,
    spv::OpSubgroupAvcSicSetIntraLumaShapePenaltyINTEL,
    spv::OpSubgroupAvcSicSetIntraLumaModeCostFunctionINTEL,
    spv::OpSubgroupAvcSicSetIntraChromaModeCostFunctionINTEL,
    spv::OpSubgroupAvcSicSetBilinearFilterEnableINTEL,
    spv::OpSubgroupAvcSicSetSkcForwardTransformEnableINTEL,
    spv::OpSubgroupAvcSicSetBlockBasedRawSkipSadINTEL,
    spv::OpSubgroupAvcSicEvaluateIpeINTEL,
    spv::OpSubgroupAvcSicEvaluateWithSingleReferenceINTEL,
    spv::OpSubgroupAvcSicEvaluateWithDualReferenceINTEL,
    spv::OpSubgroupAvcSicEvaluateWithMultiReferenceINTEL,
    spv::OpSubgroupAvcSicEvaluateWithMultiReferenceInterlacedINTEL,
    spv::OpSubgroupAvcSicConvertToMceResultINTEL,
    spv::OpSubgroupAvcSicGetIpeLumaShapeINTEL,
    spv::OpSubgroupAvcSicGetBestIpeLumaDistortionINTEL,
    spv::OpSubgroupAvcSicGetBestIpeChromaDistortionINTEL,
    spv::OpSubgroupAvcSicGetPackedIpeLumaModesINTEL,
    spv::OpSubgroupAvcSicGetIpeChromaModeINTEL,
    spv::OpSubgroupAvcSicGetPackedSkcLumaCountThresholdINTEL,
    spv::OpSubgroupAvcSicGetPackedSkcLumaSumThresholdINTEL,
    spv::OpSubgroupAvcSicGetInterRawSadsINTEL,
    spv::OpVariableLengthArrayINTEL,
    spv::OpSaveMemoryINTEL,
    spv::OpRestoreMemoryINTEL,
    spv::OpArbitraryFloatSinCosPiINTEL,
    spv::OpArbitraryFloatCastINTEL,
    spv::OpArbitraryFloatCastFromIntINTEL,
    spv::OpArbitraryFloatCastToIntINTEL,
    spv::OpArbitraryFloatAddINTEL,
    spv::OpArbitraryFloatSubINTEL,
    spv::OpArbitraryFloatMulINTEL,
    spv::OpArbitraryFloatDivINTEL,
    spv::OpArbitraryFloatGTINTEL,
    spv::OpArbitraryFloatGEINTEL,
    spv::OpArbitraryFloatLTINTEL,
    spv::OpArbitraryFloatLEINTEL,
    spv::OpArbitraryFloatEQINTEL,
    spv::OpArbitraryFloatRecipINTEL,
    spv::OpArbitraryFloatRSqrtINTEL,
    spv::OpArbitraryFloatCbrtINTEL,
    spv::OpArbitraryFloatHypotINTEL,
    spv::OpArbitraryFloatSqrtINTEL,
    spv::OpArbitraryFloatLogINTEL,
    spv::OpArbitraryFloatLog2INTEL,
    spv::OpArbitraryFloatLog10INTEL,
    spv::OpArbitraryFloatLog1pINTEL,
    spv::OpArbitraryFloatExpINTEL,
    spv::OpArbitraryFloatExp2INTEL,
    spv::OpArbitraryFloatExp10INTEL,
    spv::OpArbitraryFloatExpm1INTEL,
    spv::OpArbitraryFloatSinINTEL,
    spv::OpArbitraryFloatCosINTEL,
    spv::OpArbitraryFloatSinCosINTEL,
    spv::OpArbitraryFloatSinPiINTEL,
    spv::OpArbitraryFloatCosPiINTEL,
    spv::OpArbitraryFloatASinINTEL,
    spv::OpArbitraryFloatASinPiINTEL,
    spv::OpArbitraryFloatACosINTEL,
    spv::OpArbitraryFloatACosPiINTEL,
    spv::OpArbitraryFloatATanINTEL,
    spv::OpArbitraryFloatATanPiINTEL,
    spv::OpArbitraryFloatATan2INTEL,
    spv::OpArbitraryFloatPowINTEL,
    spv::OpArbitraryFloatPowRINTEL,
    spv::OpArbitraryFloatPowNINTEL,
    spv::OpLoopControlINTEL,
    spv::OpAliasDomainDeclINTEL,
    spv::OpAliasScopeDeclINTEL,
    spv::OpAliasScopeListDeclINTEL,
    spv::OpFixedSqrtINTEL,
    spv::OpFixedRecipINTEL,
    spv::OpFixedRsqrtINTEL,
    spv::OpFixedSinINTEL,
    spv::OpFixedCosINTEL,
    spv::OpFixedSinCosINTEL,
    spv::OpFixedSinPiINTEL,
    spv::OpFixedCosPiINTEL,
    spv::OpFixedSinCosPiINTEL,
    spv::OpFixedLogINTEL,
    spv::OpFixedExpINTEL,
    spv::OpPtrCastToCrossWorkgroupINTEL,
    spv::OpCrossWorkgroupCastToPtrINTEL,
    spv::OpReadPipeBlockingINTEL,
    spv::OpWritePipeBlockingINTEL,
    spv::OpFPGARegINTEL,
    spv::OpAtomicFAddEXT,
    spv::OpTypeBufferSurfaceINTEL,
    spv::OpTypeStructContinuedINTEL,
    spv::OpConstantCompositeContinuedINTEL,
    spv::OpSpecConstantCompositeContinuedINTEL,
    spv::OpGroupIMulKHR,
    spv::OpGroupFMulKHR,
    spv::OpGroupBitwiseAndKHR,
    spv::OpGroupBitwiseOrKHR,
    spv::OpGroupBitwiseXorKHR,
    spv::OpGroupLogicalAndKHR,
    spv::OpGroupLogicalOrKHR,
    spv::OpGroupLogicalXorKHR,
};

bool isPowerOfTwo(uint32_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

// The Aligned literal of a memory-operand mask at word `maskAt`, if there is one. Aligned is the
// lowest mask bit that takes a literal, so its literal comes first.
bool badAlignedOperand(std::span<const uint32_t> inst, size_t maskAt) {
  if (maskAt >= inst.size()) return false;
  if ((inst[maskAt] & spv::MemoryAccessAlignedMask) == 0) return false;
  return maskAt + 1 >= inst.size() || !isPowerOfTwo(inst[maskAt + 1]);
}

// The translator asserts that the bytes after a literal string's nul are nul too; SPIRV-Tools only
// requires the first nul.
bool badStringPadding(std::span<const uint32_t> inst, size_t first) {
  for (size_t w = first; w < inst.size(); ++w) {
    for (int b = 0; b < 4; ++b) {
      if (((inst[w] >> (8 * b)) & 0xff) != 0) continue;
      // The nul is byte b of word w (little-endian order of host words): the rest must be nul.
      return (inst[w] >> (8 * b)) != 0;
    }
  }
  return true;  // no nul at all: validation would have failed
}

// The word where the literal string of this instruction starts, or 0 if it has none.
size_t stringOperand(std::span<const uint32_t> inst) {
  switch (inst[0] & 0xffff) {
    case spv::OpSourceExtension:
    case spv::OpExtension:
    case spv::OpSourceContinued:
    case spv::OpModuleProcessed:
      return 1;
    case spv::OpName:
    case spv::OpString:
    case spv::OpExtInstImport:
    case spv::OpTypeOpaque:
      return 2;
    case spv::OpMemberName:
    case spv::OpEntryPoint:
      return 3;
    case spv::OpSource:
      return inst.size() > 4 ? 4 : 0;
    case spv::OpDecorate:
      return inst.size() > 3 && inst[2] == spv::DecorationLinkageAttributes ? 3 : 0;
    default:
      return 0;
  }
}

std::string describe(size_t offset, const std::string& what) {
  return "instruction at word " + std::to_string(offset) + ": " + what +
         " (the SPIR-V translator would abort on it)";
}

}  // namespace

const char* opName(uint32_t opcode) {
  return spvOpcodeString(opcode);
}

bool translatorKnowsOpcode(uint32_t opcode) {
  static_assert(std::is_sorted(std::begin(kTranslatorOpcodes), std::end(kTranslatorOpcodes)));
  return std::binary_search(std::begin(kTranslatorOpcodes), std::end(kTranslatorOpcodes),
                            static_cast<spv::Op>(opcode));
}

}  // namespace tessera::spirv

namespace tessera::spirv {

std::string findTranslatorHazard(std::span<const uint32_t> words) {
  // Ids defined before or within the annotation section. The translator creates the target of an
  // annotation or OpName as a forward reference and asserts ("Annotations only allowed on
  // forward") when the id already names something else; SPIRV-Tools allows naming and decorating
  // these.
  std::unordered_set<uint32_t> definedEarly;
  auto annotates = [&](uint32_t target) { return definedEarly.count(target) != 0; };
  // Ids named (OpName or a linkage name) like a builtin variable, "__spirv_BuiltIn...": the
  // translator lowers globals by that name and hits llvm_unreachable ("Unexpected pattern") when
  // the id is not a BuiltIn-decorated variable. Found by fuzz_cl_il.
  std::unordered_map<uint32_t, size_t> builtinNamed;  // id -> offset of the naming instruction
  std::unordered_set<uint32_t> builtinDecorated;
  auto literal = [&](std::span<const uint32_t> inst, size_t first) {
    std::string text;
    for (size_t i = first; i < inst.size(); ++i) {
      for (int b = 0; b < 4; ++b) {
        char c = static_cast<char>((inst[i] >> (8 * b)) & 0xff);
        if (c == '\0') return text;
        text.push_back(c);
      }
    }
    return text;
  };
  auto namesBuiltin = [&](std::span<const uint32_t> inst, size_t first) {
    return literal(inst, first).rfind("__spirv_BuiltIn", 0) == 0;
  };
  const Instructions instructions(words);
  for (const Instruction& instruction : instructions) {
    const size_t pos = instruction.offset;
    const uint32_t count = instruction.wordCount();
    const std::span<const uint32_t> inst = instruction.words;
    const uint32_t opcode = instruction.opcode();
    if (!translatorKnowsOpcode(opcode)) {
      return describe(pos, std::string("Op") + opName(opcode) + " (opcode " +
                               std::to_string(opcode) + ") is not implemented by the translator");
    }
    if (size_t first = stringOperand(inst); first != 0 && badStringPadding(inst, first)) {
      return describe(pos, "a literal string is not padded with nul bytes");
    }
    switch (opcode) {
      case spv::OpExtInstImport:
      case spv::OpString:
      case spv::OpDecorationGroup:
        if (count > 1) definedEarly.insert(inst[1]);
        break;
      case spv::OpName:
        if (count > 2 && namesBuiltin(inst, 2)) builtinNamed.emplace(inst[1], pos);
        [[fallthrough]];
      case spv::OpMemberName:
      case spv::OpDecorateId:
      case spv::OpMemberDecorate:
        if (count > 1 && annotates(inst[1])) {
          return describe(pos, "a decoration targets an id defined before the annotations");
        }
        break;
      case spv::OpGroupDecorate:
      case spv::OpGroupMemberDecorate:
        for (size_t i = 2; i < count; i += opcode == spv::OpGroupDecorate ? 1 : 2) {
          if (annotates(inst[i])) {
            return describe(pos, "a decoration targets an id defined before the annotations");
          }
        }
        break;
      case spv::OpSpecConstantOp:
        if (count > 3 && !translatorKnowsOpcode(inst[3])) {
          return describe(pos, "OpSpecConstantOp of Op" + std::string(opName(inst[3])) +
                                   " is not implemented by the translator");
        }
        break;
      case spv::OpDecorate:
        if (count > 3 && inst[2] == spv::DecorationBuiltIn) builtinDecorated.insert(inst[1]);
        if (count > 3 && inst[2] == spv::DecorationLinkageAttributes && namesBuiltin(inst, 3)) {
          builtinNamed.emplace(inst[1], pos);
        }
        if (count > 1 && annotates(inst[1])) {
          return describe(pos, "a decoration targets an id defined before the annotations");
        }
        // LLVM asserts that alignments are powers of two; SPIRV-Tools does not check.
        if (count > 3 && inst[2] == spv::DecorationAlignment && !isPowerOfTwo(inst[3])) {
          return describe(pos, "Alignment " + std::to_string(inst[3]) + " is not a power of two");
        }
        // The translator maps FuncParamAttr values Zext..NoWrite (0-6) to LLVM attributes and
        // asserts ("Invalid key") on any other, NoReadWrite (7) included; SPIRV-Tools accepts them.
        // Found by fuzz_cl_il.
        if (count > 3 && inst[2] == spv::DecorationFuncParamAttr && inst[3] > 6) {
          return describe(pos, "FuncParamAttr " + std::to_string(inst[3]) +
                                   " is not supported by the translator");
        }
        break;
      case spv::OpExecutionMode:
        // The translator decodes VecTypeHint into an LLVM type and hits llvm_unreachable on a
        // data type it does not know (the OpenCL SPIR-V environment: 0-3 integers, 4 half,
        // 5 float, 6 double; 1, 2, 3, 4, 8 or 16 components).
        if (count > 3 && inst[2] == spv::ExecutionModeVecTypeHint) {
          uint32_t scalar = inst[3] & 0xffff;
          uint32_t width = inst[3] >> 16;
          bool widthOk = width <= 4 || width == 8 || width == 16;
          if (scalar > 6 || !widthOk) {
            return describe(pos, "VecTypeHint " + std::to_string(inst[3]) + " names no type");
          }
        }
        break;
      case spv::OpLoad:
      case spv::OpCopyMemorySized:
        if (badAlignedOperand(inst, 4)) {
          return describe(pos, "an Aligned memory operand is not a power of two");
        }
        break;
      case spv::OpStore:
      case spv::OpCopyMemory:
        if (badAlignedOperand(inst, 3)) {
          return describe(pos, "an Aligned memory operand is not a power of two");
        }
        break;
      default:
        break;
    }
  }
  if (std::optional<Malformed> bad = instructions.malformed())
    return describe(bad->offset, "malformed word count");
  for (auto [id, at] : builtinNamed) {
    if (!builtinDecorated.count(id)) {
      return describe(at, "an id that is not a BuiltIn variable is named like one (__spirv_BuiltIn)");
    }
  }
  return {};
}

}  // namespace tessera::spirv
